/// A rectangle of pixels: columns `x..<x+width`, rows `y..<y+height`.
public struct PixelRect: Sendable, Hashable {
  /// The left column.
  public var x: Int
  /// The top row.
  public var y: Int
  /// The width in pixels.
  public var width: Int
  /// The height in pixels.
  public var height: Int

  /// Creates a rectangle.
  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// Whether row `row` crosses the rectangle.
  public func containsRow(_ row: Int) -> Bool {
    row >= y && row < y + height
  }
}
