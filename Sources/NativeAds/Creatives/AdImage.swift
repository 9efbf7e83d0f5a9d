import PNGImages

/// An image asset: where it lives, its size, and its bytes.
///
/// Built-in images are generated PNGs: their bytes are encoded the first time ``data`` is read
/// and cached from then on (thread-safely), so building an inventory costs nothing.
/// Two images are equal when their metadata is equal and their bytes are (two images drawn from
/// equal ``PNGPicture``s compare equal without encoding anything).
public struct AdImage: Sendable, Equatable {
  /// The image URL.
  public var url: String
  /// The image scale (pixels per point).
  public var scale: Double
  /// The width in pixels.
  public var width: Int
  /// The height in pixels.
  public var height: Int
  /// The MIME type of ``data``, e.g. `image/png`.
  public var mimeType: String
  private var source: Source

  private enum Source: Sendable {
    case bytes([UInt8])
    case picture(LazyImageBytes)
  }

  /// The image bytes. Reading it may encode the image the first time (see the type's
  /// discussion); setting it replaces the bytes.
  public var data: [UInt8] {
    get {
      switch source {
      case .bytes(let bytes): bytes
      case .picture(let lazy): lazy.bytes
      }
    }
    set { source = .bytes(newValue) }
  }

  /// Creates an image with the given bytes.
  public init(
    url: String, scale: Double = 1, width: Int, height: Int, mimeType: String, data: [UInt8]
  ) {
    self.url = url
    self.scale = scale
    self.width = width
    self.height = height
    self.mimeType = mimeType
    self.source = .bytes(data)
  }

  /// Creates a PNG image drawn from `picture`; its size is the picture's, and its bytes are
  /// encoded lazily on first read of ``data``.
  public init(url: String, scale: Double = 1, picture: PNGPicture) {
    self.url = url
    self.scale = scale
    self.width = picture.width
    self.height = picture.height
    self.mimeType = "image/png"
    self.source = .picture(LazyImageBytes(picture: picture))
  }

  /// The picture this image is drawn from, or nil for an image made from bytes.
  public var picture: PNGPicture? {
    if case .picture(let lazy) = source { return lazy.picture }
    return nil
  }

  /// Whether the bytes exist yet (always true for an image made from bytes). For tests.
  var isDataMaterialized: Bool {
    switch source {
    case .bytes: true
    case .picture(let lazy): lazy.isMaterialized
    }
  }

  /// Compares metadata, then bytes (without encoding when both sides are equal pictures).
  public static func == (lhs: AdImage, rhs: AdImage) -> Bool {
    guard
      lhs.url == rhs.url, lhs.scale == rhs.scale, lhs.width == rhs.width,
      lhs.height == rhs.height, lhs.mimeType == rhs.mimeType
    else { return false }
    if case .picture(let a) = lhs.source, case .picture(let b) = rhs.source,
      a === b || a.picture == b.picture
    {
      return true
    }
    return lhs.data == rhs.data
  }
}
