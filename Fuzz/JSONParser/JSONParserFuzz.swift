import JSONRPC

/// libFuzzer target: `JSONParser` and `JSONRef` against ``ReferenceJSON``.
///
/// For every input, at the default depth limit (128) and at a small one (4):
/// - the parser accepts exactly what the reference accepts;
/// - a parse error's offset lies within the input;
/// - an accepted document reads back, through `JSONRef`, as the reference's value: kinds,
///   counts, member keys and order, decoded strings byte for byte, numbers' text, each value's
///   `rawBytes` equal to its token in the input, `intValue` as the standard library reads an
///   integer, `doubleValue` present for every number, `stringEquals` consistent with the
///   decoded bytes, `forEachMember` and `members` in agreement;
/// - `materialize()` written back with `JSONWriter` is accepted by both and reads back as the
///   same value (a round trip), and one parser reused for it gives the same answer;
/// - the parser answers exactly as the implementation it replaced (`LegacyJSONParser`, shared
///   with the tests): the same verdict, and the same error (words and offset).
@_cdecl("LLVMFuzzerTestOneInput")
public func jsonParserFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  for maxDepth in [128, 4] {
    checkParser(bytes, maxDepth: maxDepth)
  }
  return 0
}

private func checkParser(_ bytes: [UInt8], maxDepth: Int) {
  let parser = JSONParser(maxDepth: maxDepth)
  let expected = ReferenceJSON.parse(bytes, maxDepth: maxDepth)
  let written: [UInt8]?
  do {
    written = try bytes.withUnsafeBytes { raw in
      try parser.parse(raw) { root -> [UInt8] in
        fuzzCheck(
          expected != nil, "the parser accepted what the reference rejects: \(bytes.debugText)")
        compare(root, expected!, input: bytes)
        var w = JSONWriter()
        w.value(root.materialize())
        return w.bytes.array
      }
    }
  } catch let error as JSONParseError {
    fuzzCheck(
      expected == nil,
      "the parser rejected what the reference accepts (\(error)): \(bytes.debugText)")
    fuzzCheck(
      error.offset >= 0 && error.offset <= bytes.count,
      "error offset \(error.offset) outside an input of \(bytes.count) bytes")
    return
  } catch {
    fuzzCheck(false, "unexpected error \(error)")
    return
  }
  checkAgainstLegacy(bytes, maxDepth: maxDepth)
  guard let written, let expected else { return }
  // The round trip: what the writer makes of the value is JSON, and the same value.
  guard let again = ReferenceJSON.parse(written, maxDepth: maxDepth) else {
    fuzzCheck(false, "the writer produced text the reference rejects: \(written.debugText)")
    return
  }
  fuzzCheck(again == expected, "the round trip changed the value: \(written.debugText)")
  do {
    try written.withUnsafeBytes { raw in
      try parser.parse(raw) { root in compare(root, again, input: written) }
    }
  } catch {
    fuzzCheck(false, "the parser rejected the writer's output (\(error)): \(written.debugText)")
  }
}

/// Checks that the parser gives the verdict and the error of the implementation it replaced.
private func checkAgainstLegacy(_ bytes: [UInt8], maxDepth: Int) {
  let fast: JSONParseError?
  do {
    fast = try bytes.withUnsafeBytes { raw in
      try JSONParser(maxDepth: maxDepth).parse(raw) { _ in nil }
    }
  } catch let error as JSONParseError {
    fast = error
  } catch {
    fuzzCheck(false, "unexpected error \(error)")
    return
  }
  let legacy: JSONParseError?
  switch LegacyJSONParser.parse(bytes, maxDepth: maxDepth) {
  case .success: legacy = nil
  case .failure(let error): legacy = error
  }
  fuzzCheck(
    fast == legacy,
    "the parser says \(fast.map(String.init(describing:)) ?? "valid"), the legacy parser \(legacy.map(String.init(describing:)) ?? "valid"): \(bytes.debugText)"
  )
}

/// Checks that `ref` reads as `node` through every accessor.
private func compare(_ ref: JSONRef, _ node: ReferenceJSON.Node, input: [UInt8]) {
  fuzzCheck(
    Array(ref.rawBytes) == Array(input[node.range]),
    "rawBytes \(Array(ref.rawBytes).debugText) is not the token \(Array(input[node.range]).debugText)"
  )
  switch node.value {
  case .null:
    fuzzCheck(ref.kind == .null && ref.isNull, "null read as \(ref.kind)")
  case .bool(let b):
    fuzzCheck(
      ref.kind == .bool && ref.boolValue == b,
      "bool \(b) read as \(ref.kind) \(String(describing: ref.boolValue))")
  case .number(let text):
    fuzzCheck(ref.kind == .number, "number read as \(ref.kind)")
    fuzzCheck(
      ref.numberText.map { Array($0.utf8) } == text, "numberText differs for \(text.debugText)")
    fuzzCheck(ref.doubleValue != nil, "no doubleValue for \(text.debugText)")
    let isIntegerSyntax =
      !text.contains(UInt8(ascii: ".")) && !text.contains { $0 | 0x20 == UInt8(ascii: "e") }
    if isIntegerSyntax {
      let standard = Int(String(decoding: text, as: UTF8.self))
      fuzzCheck(
        ref.intValue == standard,
        "intValue \(String(describing: ref.intValue)) of \(text.debugText), standard library \(String(describing: standard))"
      )
    } else if let int = ref.intValue {
      fuzzCheck(
        Double(int) == ref.doubleValue, "intValue \(int) of \(text.debugText) is not its value")
    }
    fuzzCheck(
      ref.stringValue == nil && ref.count == 0, "a number answered as a string or container")
  case .string(let decoded):
    fuzzCheck(ref.kind == .string, "string read as \(ref.kind)")
    guard let s = ref.stringValue else {
      fuzzCheck(false, "no stringValue")
      return
    }
    fuzzCheck(
      Array(s.utf8) == decoded,
      "stringValue \(Array(s.utf8).debugText), expected \(decoded.debugText)")
    for literal in probeLiterals {
      let equalBytes = decoded.elementsEqual(
        UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
      fuzzCheck(
        ref.stringEquals(literal) == equalBytes,
        "stringEquals(\"\(literal)\") is \(ref.stringEquals(literal)) for \(decoded.debugText) (raw \(Array(ref.rawBytes).debugText))"
      )
    }
    fuzzCheck(
      ref.intValue == nil && ref.doubleValue == nil && ref.boolValue == nil,
      "a string answered as a scalar of another kind")
  case .array(let items):
    fuzzCheck(
      ref.kind == .array && ref.count == items.count,
      "array of \(items.count) read as \(ref.kind) of \(ref.count)")
    let elements = ref.elements
    fuzzCheck(elements.count == items.count, "elements has \(elements.count) of \(items.count)")
    for (e, item) in zip(elements, items) { compare(e, item, input: input) }
    fuzzCheck(ref.members.isEmpty, "an array has members")
  case .object(let members):
    fuzzCheck(
      ref.kind == .object && ref.count == members.count,
      "object of \(members.count) read as \(ref.kind) of \(ref.count)")
    let read = ref.members
    fuzzCheck(read.count == members.count, "members has \(read.count) of \(members.count)")
    for (m, member) in zip(read, members) {
      fuzzCheck(
        Array(m.key.utf8) == member.key,
        "key \(Array(m.key.utf8).debugText), expected \(member.key.debugText)")
      compare(m.value, member.value, input: input)
    }
    var visited = 0
    ref.forEachMember { key, value in
      let member = members[visited]
      fuzzCheck(
        Array(key) == member.key,
        "forEachMember key \(Array(key).debugText), expected \(member.key.debugText)")
      fuzzCheck(
        Array(value.rawBytes) == Array(input[member.value.range]), "forEachMember value differs")
      visited += 1
    }
    fuzzCheck(visited == members.count, "forEachMember visited \(visited) of \(members.count)")
    // Lookups by name: the last member whose key has exactly these bytes wins.
    for member in members {
      let key = String(decoding: member.key, as: UTF8.self)
      let last = members.last { $0.key == member.key }!
      let found = ref.member(key)
      fuzzCheck(
        found.map { Array($0.rawBytes) } == Array(input[last.value.range]),
        "member(\(member.key.debugText)) is not the last member with that key")
    }
    lookUpProbeKeys(ref, members, input: input)
    fuzzCheck(ref.elements.isEmpty, "an object has elements")
  }
}

/// Literals compared with every string (`stringEquals`) and looked up in every object
/// (`subscript`): the envelope's words, and words with look-alikes under Unicode canonical
/// equivalence (KELVIN SIGN is canonically equivalent to "K", ANGSTROM SIGN to "Å").
private let probeLiterals: [StaticString] = [
  "2.0", "jsonrpc", "id", "method", "params", "K", "Kind", "a", "", "Å", "é",
]

private func lookUpProbeKeys(
  _ ref: JSONRef, _ members: [(key: [UInt8], value: ReferenceJSON.Node)], input: [UInt8]
) {
  func check(_ literal: StaticString, _ found: JSONRef?) {
    let bytes = Array(
      UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    let last = members.last { $0.key == bytes }
    fuzzCheck(
      found.map { Array($0.rawBytes) } == last.map { Array(input[$0.value.range]) },
      "subscript[\"\(literal)\"] is not the last member with exactly that key")
  }
  // The subscript takes a StaticString: one call per literal.
  check("2.0", ref["2.0"])
  check("jsonrpc", ref["jsonrpc"])
  check("id", ref["id"])
  check("method", ref["method"])
  check("params", ref["params"])
  check("K", ref["K"])
  check("Kind", ref["Kind"])
  check("a", ref["a"])
  check("", ref[""])
  check("Å", ref["Å"])
  check("é", ref["é"])
}
