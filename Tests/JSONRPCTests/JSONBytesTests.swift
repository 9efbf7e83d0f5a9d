import Testing

@testable import JSONRPC

/// The byte-level scans of the parser (``JSONBytes``) against their definitions.
@Suite struct JSONBytesTests {
  @Test func byteClassesMatchTheirDefinitions() {
    for byte in UInt8.min...UInt8.max {
      #expect(JSONBytes.isWhitespace(byte) == [0x20, 0x09, 0x0A, 0x0D].contains(byte))
      #expect(
        JSONBytes.endsPlainRun(byte)
          == (byte < 0x20 || byte == 0x22 || byte == 0x5C || byte >= 0x80))
    }
  }

  /// `plainRunEnd` for every start and every position of one special byte in buffers of
  /// every length up to 100 (the 16- and 64-byte loops, the overlapping last block, messages
  /// shorter than a block).
  @Test func plainRunEndFindsTheFirstSpecialByte() {
    for length in 0...100 {
      for special in [-1] + Array(0..<length) {
        for byte: UInt8 in special < 0 ? [0x61] : [0x00, 0x22, 0x5C, 0x80] {
          var bytes = [UInt8](repeating: 0x61, count: length)
          if special >= 0 { bytes[special] = byte }
          bytes.withUnsafeBufferPointer { buffer in
            guard let p = buffer.baseAddress else { return }
            for from in 0...length {
              let expected = special >= from ? special : length
              let found = JSONBytes.plainRunEnd(p, length, from)
              if found != expected {
                Issue.record("length \(length), special at \(special), from \(from): \(found)")
              }
            }
          }
        }
      }
    }
  }

  @Test func skipWhitespaceStopsAtTheFirstOtherByte() {
    for length in 0...40 {
      for stop in [-1] + Array(0..<length) {
        var bytes = (0..<length).map { [0x20, 0x20, 0x0A, 0x20, 0x09, 0x0D][$0 % 6] as UInt8 }
        if stop >= 0 { bytes[stop] = 0x78 }
        bytes.withUnsafeBufferPointer { buffer in
          guard let p = buffer.baseAddress else { return }
          for from in 0...length {
            let expected = (from..<length).first { !JSONBytes.isWhitespace(bytes[$0]) } ?? length
            #expect(JSONBytes.skipWhitespace(p, length, from) == expected)
          }
        }
      }
    }
  }

  /// Every byte value at every lane of the first block, the second block, the 64-byte loop,
  /// the 16-byte loop after it and the last (overlapping) block of a buffer.
  @Test func everyByteValueInEveryLane() {
    let length = 150
    for position in 0..<length {
      for byte in UInt8.min...UInt8.max {
        var bytes = [UInt8](repeating: 0x61, count: length)
        bytes[position] = byte
        bytes.withUnsafeBufferPointer { buffer in
          let p = buffer.baseAddress!
          for from in Set([0, max(0, position - 17), position]) {
            let expected = JSONBytes.endsPlainRun(byte) ? position : length
            let found = JSONBytes.plainRunEnd(p, length, from)
            if found != expected {
              Issue.record("byte \(byte) at \(position), from \(from): \(found)")
            }
          }
        }
      }
    }
  }

  /// `plainStringEnd` finds the closing quote of a plain string, and nothing otherwise, with
  /// the string's end at every place in and around the first block and the message's end.
  @Test func plainStringEndFindsOnlyPlainStrings() {
    for length in 0...40 {
      for tail in 0...20 {
        for special: UInt8? in [nil, 0x5C, 0x0A, 0xC3, 0x22] {
          for position in special == nil ? [0] : Array(0..<max(length, 1))
          where position < length
            || special == nil
          {
            var body = [UInt8](repeating: 0x61, count: length)
            if let special { body[position] = special }
            for closed in [true, false] {
              let bytes =
                [0x22] + body + (closed ? [0x22] : []) + [UInt8](repeating: 0x2C, count: tail)
              let firstSpecial = body.firstIndex { JSONBytes.endsPlainRun($0) }
              let expected: Int
              if let firstSpecial {
                expected = body[firstSpecial] == 0x22 ? 1 + firstSpecial : -1
              } else {
                expected = closed ? 1 + length : -1
              }
              let found = bytes.withUnsafeBufferPointer {
                JSONBytes.plainStringEnd($0.baseAddress!, bytes.count, 0)
              }
              if found != expected {
                Issue.record("\(bytes): \(found), expected \(expected)")
              }
            }
          }
        }
      }
    }
  }
}
