import PNGImages
import Synchronization

/// The bytes of a generated image, encoded on first use and cached.
///
/// Images are values that may cross threads (``AdImage`` is `Sendable`), so the cache is guarded
/// by a `Mutex`; in practice only the event loop reads it and the lock is uncontended.
final class LazyImageBytes: Sendable {
  /// What to draw.
  let picture: PNGPicture
  private let cache = Mutex<[UInt8]?>(nil)

  init(picture: PNGPicture) {
    self.picture = picture
  }

  /// The PNG bytes, encoding them on the first call.
  var bytes: [UInt8] {
    cache.withLock { cached in
      if let cached { return cached }
      let encoded = picture.pngData()
      cached = encoded
      return encoded
    }
  }

  /// Whether the bytes have been encoded yet.
  var isMaterialized: Bool {
    cache.withLock { $0 != nil }
  }
}
