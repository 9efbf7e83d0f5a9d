import Synchronization

/// What the packed creatives of one store load are made of (``PackedNativeCreative``): the
/// packed bytes of each, on pages, and the values they share (strings, images, string lists,
/// AdChoices), named by index.
///
/// Written by the ``CreativePacker`` of the load (appending only), read when a packed creative
/// is first unpacked; the lock makes it `Sendable` as the creatives that refer to it are, and is
/// uncontended in practice (the loop thread does both).
final class CreativeTables: Sendable {
  struct Storage {
    var strings: [String] = []
    var images: [PackedImage] = []
    var imageLists: [[PackedImage]] = []
    var stringLists: [[String]] = []
    var adChoices: [AdChoicesInfo] = []
    /// The creatives' packed bytes: pages of a fixed size, filled in order, and how much of
    /// the last is used.
    var pages: [[UInt8]] = []
    var lastPageUsed = 0
  }

  /// The size of a page of packed bytes (a creative longer than that gets a page of its own).
  static let pageBytes = 1 << 20

  private let storage = Mutex(Storage())

  func read<R>(_ body: (borrowing Storage) -> R) -> R {
    storage.withLock { body($0) }
  }

  /// Appends to the tables with `body`.
  func append(_ body: (inout Storage) -> Void) {
    storage.withLock { body(&$0) }
  }

  /// Stores a creative's packed bytes; where they are (page << 32 | offset).
  func store(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    let count = bytes.count
    return storage.withLock { s in
      if s.pages.isEmpty || s.lastPageUsed + count > s.pages[s.pages.count - 1].count {
        s.pages.append(Self.newPage(max(Self.pageBytes, count)))
        s.lastPageUsed = 0
      }
      let last = s.pages.count - 1
      let offset = s.lastPageUsed
      s.pages[last].withUnsafeMutableBytes { page in
        if count > 0 {
          (page.baseAddress! + offset).copyMemory(from: bytes.baseAddress!, byteCount: count)
        }
      }
      s.lastPageUsed += count
      return UInt64(last) << 32 | UInt64(offset)
    }
  }

  /// A page of `count` bytes, left as the allocator gives it: a page this large is mapped
  /// fresh, so the memory is resident only where creatives are written (a store of a few
  /// creatives must not cost a megabyte of zeros). Only written bytes are ever read.
  private static func newPage(_ count: Int) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
  }

  /// How many bytes the pages hold and take. For measurements.
  var packedBytes: (used: Int, reserved: Int) {
    storage.withLock { s in
      let reserved = s.pages.reduce(0) { $0 + $1.count }
      return (reserved - (s.pages.last?.count ?? 0) + s.lastPageUsed, reserved)
    }
  }
}
