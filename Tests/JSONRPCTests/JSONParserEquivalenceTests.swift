import Testing

@testable import JSONRPC

/// The fast parser against ``LegacyJSONParser``, the straightforward implementation it
/// replaced: for every input, the same verdict, the same tape node for node (kinds, flags,
/// offsets, counts, links) or the same error at the same offset. One parser serves every
/// input of a test, as a connection's parser does.
@Suite struct JSONParserEquivalenceTests {
  /// Parses `bytes` with `parser` and with the legacy parser; records any difference.
  static func expectSame(
    _ bytes: [UInt8], parser: JSONParser, maxDepth: Int = 128,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    parser.maxDepth = maxDepth
    let fast: Result<[LegacyNode], JSONParseError>
    do {
      fast = .success(
        try bytes.withUnsafeBytes { raw in
          try parser.parse(raw) { _ in parser.nodes.buffer.map(LegacyNode.init) }
        })
    } catch let error as JSONParseError {
      fast = .failure(error)
    } catch {
      Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
      return
    }
    let legacy = LegacyJSONParser.parse(bytes, maxDepth: maxDepth)
    let same: Bool
    switch (fast, legacy) {
    case (.success(let a), .success(let b)): same = a == b
    case (.failure(let a), .failure(let b)): same = a == b
    default: same = false
    }
    if !same {
      Issue.record(
        """
        \(String(decoding: bytes.prefix(300), as: UTF8.self).debugDescription) \
        (\(bytes.count) bytes, max depth \(maxDepth)):
          fast:   \(fast)
          legacy: \(legacy)
        """, sourceLocation: sourceLocation)
    }
  }

  static let documents: [String] = [
    #"{"jsonrpc":"2.0","id":17,"method":"stringForKey","params":{"adId":"ad-1cc520-1","key":"headline"}}"#,
    #"[null,true,false,0,-0,1.5e+3,-12.25E-7,"",{},[],{"a":[{"b":{"c":[1,2,{"d":null}]}}]}]"#,
    #"{"e":"a\"b\\c\/d\be\ff\ng\rh\ti\u00e9j\ud83d\ude00k","é":"ü€😀","\u0041":"\uABCD"}"#,
    """
    {
      "creatives": [
        {
          "id": "c-0000001",
          "priority": 12,
          "eCPM": 2.5,
          "assets": { "headline": "Flood-It!", "icon": { "width": 128 } },
          "tags": [ ]
        }
      ]
    }
    """,
    "  \t\r\n[ 1 ,\t2\n,\r3 ]  \n",
    #""a string that is longer than sixty-four bytes, so that the long loop reads it, yes""#,
  ]

  /// Bytes chosen to hit every class: controls, whitespace, quote, backslash, escape letters,
  /// digits, punctuation, letters, DEL, continuation bytes, every kind of lead byte.
  static let probes: [UInt8] = [
    0x00, 0x01, 0x08, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x2B, 0x2C, 0x2D, 0x2E,
    0x2F, 0x30, 0x31, 0x39, 0x3A, 0x41, 0x45, 0x46, 0x5B, 0x5C, 0x5D, 0x61, 0x62, 0x65, 0x66,
    0x6C, 0x6E, 0x72, 0x73, 0x74, 0x75, 0x7B, 0x7D, 0x7E, 0x7F, 0x80, 0xBF, 0xC0, 0xC1, 0xC2,
    0xDF, 0xE0, 0xE1, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF,
  ]

  @Test func documentsTruncatedAtEveryByte() {
    let parser = JSONParser()
    for document in Self.documents {
      let bytes = Array(document.utf8)
      for end in 0...bytes.count { Self.expectSame(Array(bytes[..<end]), parser: parser) }
      for start in 0...bytes.count { Self.expectSame(Array(bytes[start...]), parser: parser) }
    }
  }

  @Test func documentsWithEveryProbeByteAtEveryOffset() {
    let parser = JSONParser()
    for document in Self.documents {
      let bytes = Array(document.utf8)
      for offset in bytes.indices {
        for probe in Self.probes {
          var changed = bytes
          changed[offset] = probe
          Self.expectSame(changed, parser: parser)
        }
        var shorter = bytes
        shorter.remove(at: offset)
        Self.expectSame(shorter, parser: parser)
        for probe: UInt8 in [0x20, 0x22, 0x5C, 0xC3, 0x0A] {
          var longer = bytes
          longer.insert(probe, at: offset)
          Self.expectSame(longer, parser: parser)
        }
      }
    }
  }

  /// Strings of lengths around every block boundary (one to five 16-byte blocks, the 64-byte
  /// loop, every tail) with a probe byte at every offset, as a value, as a key, unterminated,
  /// and at the end of the message (where the last block overlaps the bytes before it); and
  /// every byte value at a few offsets.
  @Test func everyByteClassAtEveryOffsetOfAString() {
    let parser = JSONParser()
    let quote = UInt8(ascii: "\"")
    func check(_ body: [UInt8]) {
      Self.expectSame([quote] + body + [quote], parser: parser)
      Self.expectSame(
        Array(#"{"k":["#.utf8) + [quote] + body + Array(#"",0]}"#.utf8), parser: parser)
      Self.expectSame([UInt8(ascii: "{"), quote] + body + Array(#"":1}"#.utf8), parser: parser)
      Self.expectSame([quote] + body, parser: parser)
    }
    let lengths = Array(1...20) + [31, 32, 33, 47, 48, 49, 63, 64, 65, 66, 79, 80, 81, 95, 96, 97]
    for length in lengths {
      for offset in 0..<length {
        for probe in Self.probes {
          var body = [UInt8](repeating: UInt8(ascii: "a"), count: length)
          body[offset] = probe
          check(body)
        }
      }
    }
    for length in [1, 17, 70] {
      for offset in Set([0, length / 2, length - 1]) {
        for byte in UInt8.min...UInt8.max {
          var body = [UInt8](repeating: UInt8(ascii: "a"), count: length)
          body[offset] = byte
          check(body)
        }
      }
    }
  }

  /// Escapes and multi-byte sequences cut at every byte, and followed by plain text of every
  /// length (the fast scan resumes after them at every alignment).
  @Test func escapesAndMultiByteSequencesAtEveryAlignment() {
    let parser = JSONParser()
    let specials = [
      #"\""#, #"\\"#, #"\/"#, #"\b"#, #"\u0041"#, #"\uD83D\uDE00"#, #"\uD83D"#, #"\uDE00x"#,
      #"\x"#, #"\u12G4"#, "é", "€", "😀", "\u{7F}",
    ]
    for special in specials {
      let s = Array(special.utf8)
      for cut in 0...s.count {
        for pad in 0..<40 {
          let plain = [UInt8](repeating: UInt8(ascii: "b"), count: pad)
          let body = plain + Array(s[..<cut]) + plain + s
          Self.expectSame([0x22] + body + [0x22], parser: parser)
          Self.expectSame([0x22] + body, parser: parser)
        }
      }
    }
    // Invalid UTF-8 sequences of the legacy tests, at every alignment.
    let invalid: [[UInt8]] = [
      [0xC0, 0x80], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
      [0xF0, 0x8F, 0xBF, 0xBF], [0xC3, 0x28], [0xE2, 0x82, 0x28], [0xF0, 0x9F, 0x98, 0x28],
      [0x80], [0xFF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98],
    ]
    for sequence in invalid {
      for pad in 0..<40 {
        let plain = [UInt8](repeating: UInt8(ascii: "c"), count: pad)
        Self.expectSame([0x22] + plain + sequence + [0x22], parser: parser)
        Self.expectSame([0x22] + plain + sequence, parser: parser)
      }
    }
  }

  /// Runs of each whitespace byte of every length up to 40 at every place the grammar
  /// allows whitespace, and at places it does not.
  @Test func whitespaceRunsEverywhere() {
    let parser = JSONParser()
    let template = Array(#"{"a":[1,"b",{"c":true}],"d":null}"#.utf8)
    for gap in template.indices + [template.count] {
      for byte: UInt8 in [0x20, 0x09, 0x0A, 0x0D] {
        for length in [1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 40] {
          var bytes = template
          bytes.insert(contentsOf: [UInt8](repeating: byte, count: length), at: gap)
          Self.expectSame(bytes, parser: parser)
          bytes.insert(0x0A, at: gap)  // a newline then spaces: the indentation path
          Self.expectSame(bytes, parser: parser)
        }
      }
    }
  }

  @Test func numbersAndLiterals() {
    let parser = JSONParser()
    let tokens = [
      "0", "-0", "7", "-7", "10", "0.5", "-0.5", "1e5", "1E+5", "1e-5", "12.34e56", "01", "-01",
      "1.", ".5", "-", "+1", "1e", "1e+", "1.e5", "--1", "0x1", "true", "false", "null", "tru",
      "fals", "nul", "trux", "falsy", "nulL", "truee", "t", "f", "n",
    ]
    for token in tokens {
      for context in ["%", "[%]", "[%,%]", #"{"k":%}"#, "[ % ]", "%x", "% ", "[%"] {
        let text = context.split(separator: "%", omittingEmptySubsequences: false).joined(
          separator: token)
        Self.expectSame(Array(text.utf8), parser: parser)
      }
    }
  }

  /// Enough nodes to grow the tape several times, in one parser that is then reused.
  @Test func largeDocumentsGrowTheTape() {
    let parser = JSONParser()
    let numbers = "[" + (0..<5000).map(String.init).joined(separator: ",") + "]"
    let members = "{" + (0..<3000).map { #""k\#($0)":"v\#($0)""# }.joined(separator: ",") + "}"
    let escaped = "[" + (0..<2000).map { #""\u00e9\#($0)""# }.joined(separator: ",") + "]"
    for text in [numbers, members, escaped, numbers] {
      Self.expectSame(Array(text.utf8), parser: parser)
      Self.expectSame(Array(text.utf8.dropLast()), parser: parser)
    }
  }

  @Test func nestingAtAndAroundTheLimit() {
    let parser = JSONParser()
    for depth in [0, 1, 2, 3, 4, 5, 127, 128, 129] {
      let arrays = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
      let objects =
        String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
      let mixed =
        String(repeating: #"[{"a":"#, count: depth) + "[]"
        + String(repeating: "}]", count: depth)
      for maxDepth in [0, 1, 4, 128, 300] {
        for text in [arrays, objects, mixed] {
          Self.expectSame(Array(text.utf8), parser: parser, maxDepth: maxDepth)
          Self.expectSame(Array(text.utf8.dropLast()), parser: parser, maxDepth: maxDepth)
        }
      }
    }
  }
}

extension LegacyNode {
  init(_ node: JSONNode) {
    self.init(
      kind: Kind(rawValue: node.kind.rawValue)!, flag: node.flag, start: Int(node.start),
      end: Int(node.end), count: Int(node.count), next: Int(node.next))
  }
}
