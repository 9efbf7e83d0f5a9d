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
    // on every load). Each draw gives as many whole characters as its 64 bits hold, lowest bits
    // first; the bits left over are dropped.
    let mask = UInt64(alphabet.count - 1)
    let shift = UInt64(bitsPerCharacter)
    let perDraw = 64 / bitsPerCharacter
    return alphabet.withUnsafeBufferPointer { letters in
      String(unsafeUninitializedCapacity: length) { out in
        var i = 0
        while i < length {
          var bits = next()
          let end = Swift.min(i + perDraw, length)
          while i < end {
            out[i] = letters[Int(bits & mask)]
            bits &>>= shift
            i += 1
          }
        }
        return length
      }
    }
  }
}
