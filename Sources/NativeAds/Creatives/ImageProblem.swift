/// What makes an image unservable: it has no positive size.
public enum ImageProblem: Sendable, Equatable {
  /// The width is 0 or less.
  case nonPositiveWidth
  /// The height is 0 or less.
  case nonPositiveHeight
}

extension AdImage {
  /// The largest width or height a store or mapped image may state (generated PNGs are drawn
  /// at that size).
  public static let maximumSide = 8192
  /// The sizes an image may state: 1 to ``maximumSide`` pixels.
  public static let sideRange: ClosedRange<Int> = 1...maximumSide
  /// The scales an image may state (pixels per point).
  public static let scaleRange: ClosedRange<Double> = 0.1...10

  /// Why the image cannot be served (no positive size), or nil when it can.
  public var problem: ImageProblem? { Self.problem(width: width, height: height) }

  /// Why an image of that size cannot be served, or nil when it can (the rule of ``problem``).
  public static func problem(width: Int, height: Int) -> ImageProblem? {
    if width <= 0 { return .nonPositiveWidth }
    if height <= 0 { return .nonPositiveHeight }
    return nil
  }
}
