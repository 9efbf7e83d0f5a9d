/// An opaque 8-bit-per-channel colour.
public struct RGBColor: Sendable, Hashable {
  /// Red.
  public var red: UInt8
  /// Green.
  public var green: UInt8
  /// Blue.
  public var blue: UInt8

  /// Creates a colour.
  public init(red: UInt8, green: UInt8, blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  /// A colour from a hue in degrees (0..<360), saturation and value (0...1).
  public init(hue: Double, saturation: Double, value: Double) {
    let h = (hue.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
    let c = value * saturation
    let sector = h / 60
    let x = c * (1 - abs(sector.truncatingRemainder(dividingBy: 2) - 1))
    let m = value - c
    let (r, g, b): (Double, Double, Double) =
      switch Int(sector) {
      case 0: (c, x, 0)
      case 1: (x, c, 0)
      case 2: (0, c, x)
      case 3: (0, x, c)
      case 4: (x, 0, c)
      default: (c, 0, x)
      }
    func channel(_ v: Double) -> UInt8 { UInt8(max(0, min(255, ((v + m) * 255).rounded()))) }
    self.init(red: channel(r), green: channel(g), blue: channel(b))
  }

  /// Perceived brightness, 0 (black) to 255 (white).
  public var luminance: Int {
    (299 * Int(red) + 587 * Int(green) + 114 * Int(blue)) / 1000
  }

  /// This colour mixed with `other`; `fraction` 0 gives this colour, 1 gives `other`.
  public func mixed(with other: RGBColor, fraction: Double) -> RGBColor {
    func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
      UInt8(max(0, min(255, (Double(a) + (Double(b) - Double(a)) * fraction).rounded())))
    }
    return RGBColor(
      red: mix(red, other.red), green: mix(green, other.green), blue: mix(blue, other.blue))
  }

  /// Black.
  public static let black = RGBColor(red: 0, green: 0, blue: 0)
  /// White.
  public static let white = RGBColor(red: 255, green: 255, blue: 255)
}
