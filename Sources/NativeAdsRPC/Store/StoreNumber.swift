/// Reading a JSON number token as a `Double` without making a `String`, for the common short
/// decimals of a store (`2.58`, `4.5`, `1200`).
enum StoreNumber {
  /// The value of the number token `bytes`, exactly as `Double(String)` reads it, when it is
  /// short enough to compute exactly: at most 19 significant digits whose value is at most 2^53,
  /// and a power of ten within 10^±22 (then one multiplication or division of two exact values
  /// rounds correctly: Clinger's fast path). Nil otherwise: the caller asks `Double(String)`.
  static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    let n = bytes.count
    var i = 0
    var negative = false
    if i < n, bytes[i] == UInt8(ascii: "-") {
      negative = true
      i += 1
    }
    var mantissa: UInt64 = 0
    var digits = 0
    var exponent = 0
    while i < n, bytes[i] &- 0x30 < 10 {
      if digits < 19 {
        mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 0x30)
        if mantissa != 0 { digits += 1 }
      } else {
        return nil
      }
      i += 1
    }
    if i < n, bytes[i] == UInt8(ascii: ".") {
      i += 1
      while i < n, bytes[i] &- 0x30 < 10 {
        guard digits < 19 else { return nil }
        mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 0x30)
        if mantissa != 0 { digits += 1 }
        exponent -= 1
        i += 1
      }
    }
    if i < n, bytes[i] | 0x20 == UInt8(ascii: "e") {
      i += 1
      var negativeExponent = false
      if i < n, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
        negativeExponent = bytes[i] == UInt8(ascii: "-")
        i += 1
      }
      var e = 0
      while i < n, bytes[i] &- 0x30 < 10 {
        e = e * 10 + Int(bytes[i] &- 0x30)
        if e > 1000 { return nil }
        i += 1
      }
      exponent += negativeExponent ? -e : e
    }
    guard i == n, mantissa <= 1 << 53, (-22...22).contains(exponent) else { return nil }
    var value = Double(mantissa)
    if exponent < 0 {
      value /= powersOfTen[-exponent]
    } else if exponent > 0 {
      value *= powersOfTen[exponent]
    }
    return negative ? -value : value
  }

  private static let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]
}
