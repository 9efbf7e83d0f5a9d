import Testing

@testable import JSONRPC

/// The params of most requests are a flat object of plain strings, which the parser reads
/// straight into the tape; everything else takes the general state machine. Either way the
/// tape is the same, node for node, and so are the errors.
@Suite struct FlatObjectTests {
  private struct Node: Equatable {
    let kind: JSONRef.Kind
    let start: UInt32
    let end: UInt32
    let count: UInt32
    let next: UInt32
    let flag: Bool
  }

  /// The tape, or the error, of `text` read as a request's params (the flat layer on) or as a
  /// whole document (the state machine only).
  private enum Outcome: Equatable {
    case tape([Node])
    case error(String)
  }

  private static func read(_ text: String, asParams: Bool) -> Outcome {
    var bytes = Array(text.utf8)
    let parser = JSONParser(maxDepth: 8)
    return bytes.withUnsafeMutableBytes { raw in
      do {
        let body: (JSONRef) -> [Node] = { root in
          let total = Int(root.tape[0].next)
          return (0..<total).map { i in
            let n = root.tape[i]
            return Node(
              kind: JSONRef(base: root.base, tape: root.tape, index: i).kind, start: n.start,
              end: n.end, count: n.count, next: n.next, flag: n.flag)
          }
        }
        let buffer = UnsafeRawBufferPointer(raw)
        return .tape(
          try asParams
            ? parser.parse(buffer, depthOutside: 1, body) : parser.parse(buffer, body))
      } catch {
        return .error("\(error)")
      }
    }
  }

  @Test(arguments: [
    "{}", #"{"a":"b"}"#, #"{"adId":"ad-5f3c2a-1","key":"headline"}"#, #"{"":""}"#,
    #"{"a":"","b":"x","a":"y"}"#, #"{"adUnitID":"/21775744923/example/native"}"#,
    "{"
      + (0..<40).map { #""k\#($0)":"\#(String(repeating: "v", count: $0))""# }.joined(
        separator: ",") + "}",
    // Not flat, or not plain, or not JSON: the state machine reads these.
    #"{"a":1}"#, #"{"a":"b","c":{}}"#, #"{ "a":"b"}"#, #"{"a" :"b"}"#, #"{"a":"b" }"#,
    #"{"a":"b"} "#, #"{"a":"\n"}"#, #"{"é":"b"}"#, #"{"a":"b"x"#, #"{"a":"b""#, #"{"a":}"#,
    #"{"a""b"}"#, #"{"a":"b",}"#, #"{,}"#, "{", #"{"a":"b"}}"#, #"{"a":"b","#, #"{"a":null}"#,
    "[]", "\"s\"", #"{"a":"b\u0001"}"#,
  ])
  func theTapeIsTheOneTheStateMachineWrites(text: String) {
    #expect(Self.read(text, asParams: true) == Self.read(text, asParams: false), "\(text)")
  }
}
