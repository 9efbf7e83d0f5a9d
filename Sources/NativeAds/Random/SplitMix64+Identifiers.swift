extension SplitMix64 {
  /// The alphabets, as static bytes: read with constant masks and shifts once ``draw`` is
  /// inlined into its caller (a response identifier is drawn on every load).
  private static let base64URLAlphabet: StaticString =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
  private static let hexAlphabet: StaticString = "0123456789abcdef"

  /// A random identifier of `length` base64url characters (`A–Z a–z 0–9 - _`).
  public mutating func base64URLIdentifier(length: Int) -> String {
    identifier(length: length, alphabet: Self.base64URLAlphabet, bitsPerCharacter: 6)
  }

  /// A random identifier of `length` lowercase hexadecimal digits.
  public mutating func hexIdentifier(length: Int) -> String {
    identifier(length: length, alphabet: Self.hexAlphabet, bitsPerCharacter: 4)
  }

  /// Fills `out` with random base64url characters: the ones `base64URLIdentifier(length:)`
  /// gives for `out.count`.
  mutating func base64URLCharacters(into out: UnsafeMutableRawBufferPointer) {
    draw(into: out, alphabet: Self.base64URLAlphabet, bitsPerCharacter: 6)
  }

  private mutating func identifier(length: Int, alphabet: StaticString, bitsPerCharacter: Int)
    -> String
  {
    // Written straight into the string's storage: no array in between.
    String(unsafeUninitializedCapacity: length) { out in
      draw(
        into: UnsafeMutableRawBufferPointer(out), alphabet: alphabet,
        bitsPerCharacter: bitsPerCharacter)
      return length
    }
  }

  /// Each draw gives as many whole characters as its 64 bits hold, lowest bits first; the bits
  /// left over are dropped. `alphabet` has 2^`bitsPerCharacter` characters.
  @inline(__always)
  private mutating func draw(
    into out: UnsafeMutableRawBufferPointer, alphabet: StaticString, bitsPerCharacter: Int
  ) {
    let letters = alphabet.utf8Start
    let mask = UInt64(alphabet.utf8CodeUnitCount &- 1)
    let shift = UInt64(bitsPerCharacter)
    let perDraw = 64 / bitsPerCharacter
    let length = out.count
    var i = 0
    while i < length {
      var bits = next()
      let end = Swift.min(i &+ perDraw, length)
      while i < end {
        out[i] = letters[Int(truncatingIfNeeded: bits & mask)]
        bits &>>= shift
        i &+= 1
      }
    }
  }
}
