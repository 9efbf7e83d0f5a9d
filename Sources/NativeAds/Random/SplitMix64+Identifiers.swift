extension SplitMix64 {
  private static let base64URLAlphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
  private static let hexAlphabet = Array("0123456789abcdef".utf8)

  /// A random identifier of `length` base64url characters (`A–Z a–z 0–9 - _`).
  public mutating func base64URLIdentifier(length: Int) -> String {
    identifier(length: length, alphabet: Self.base64URLAlphabet, bitsPerCharacter: 6)
  }

  /// A random identifier of `length` lowercase hexadecimal digits.
  public mutating func hexIdentifier(length: Int) -> String {
    identifier(length: length, alphabet: Self.hexAlphabet, bitsPerCharacter: 4)
  }

  private mutating func identifier(length: Int, alphabet: [UInt8], bitsPerCharacter: Int)
    -> String
  {
    // Written straight into the string's storage: no array in between (a response ID is made
    // on every load).
    var bits: UInt64 = 0
    var available = 0
    let mask = UInt64(alphabet.count - 1)
    return alphabet.withUnsafeBufferPointer { letters in
      String(unsafeUninitializedCapacity: length) { out in
        for i in 0..<length {
          if available < bitsPerCharacter {
            bits = next()
            available = 64
          }
          out[i] = letters[Int(bits & mask)]
          bits >>= UInt64(bitsPerCharacter)
          available -= bitsPerCharacter
        }
        return length
      }
    }
  }
}
