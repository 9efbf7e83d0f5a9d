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
    var characters: [UInt8] = []
    characters.reserveCapacity(length)
    var bits: UInt64 = 0
    var available = 0
    let mask = UInt64(alphabet.count - 1)
    while characters.count < length {
      if available < bitsPerCharacter {
        bits = next()
        available = 64
      }
      characters.append(alphabet[Int(bits & mask)])
      bits >>= UInt64(bitsPerCharacter)
      available -= bitsPerCharacter
    }
    return String(decoding: characters, as: UTF8.self)
  }
}
