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
    /// The creatives' packed bytes: pages that are appended to, never moved.
    var pages: [[UInt8]] = []
  }

  /// The size of a page of packed bytes (a creative longer than that gets a page of its own).
  static let pageBytes = 1 << 20

  private let storage = Mutex(Storage())

  func read<R>(_ body: (borrowing Storage) -> R) -> R {
    storage.withLock { body($0) }
  }

  /// Appends with `body`, which returns the index of what it appended.
  func append(_ body: (inout Storage) -> Int) -> Int {
    storage.withLock { body(&$0) }
  }

  /// Stores a creative's packed bytes; where they are (page << 32 | offset).
  func store(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    storage.withLock { s in
      if s.pages.isEmpty || s.pages[s.pages.count - 1].count + bytes.count
        > s.pages[s.pages.count - 1].capacity
      {
        // Reserved in place: a second reference to the page would make the append copy it.
        s.pages.append([])
        s.pages[s.pages.count - 1].reserveCapacity(max(Self.pageBytes, bytes.count))
      }
      let last = s.pages.count - 1
      let offset = s.pages[last].count
      s.pages[last].append(contentsOf: bytes)
      return UInt64(last) << 32 | UInt64(offset)
    }
  }

  /// How many bytes the pages hold and take. For measurements.
  var packedBytes: (used: Int, reserved: Int) {
    storage.withLock { s in
      (s.pages.reduce(0) { $0 + $1.count }, s.pages.reduce(0) { $0 + $1.capacity })
    }
  }
}
