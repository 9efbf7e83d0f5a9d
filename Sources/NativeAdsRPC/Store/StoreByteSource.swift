/// Where the store loader reads a document from, chunk by chunk (``StoreLoader/load(from:into:options:)``).
///
/// The executable reads `--store FILE` through one; ``StoreBytes`` serves bytes already in
/// memory (the built-in store, tests). Loop-thread only, used during one load.
public protocol StoreByteSource {
  /// The document's size in bytes when known (progress lines say "of N MB").
  var size: Int? { get }

  /// Reads up to `buffer.count` bytes at the current position into `buffer`; returns how many
  /// (0 at the end of the document).
  ///
  /// - Throws: ``StoreLoadError`` (empty path) when the bytes cannot be read.
  mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(StoreLoadError) -> Int

  /// Moves the current position to `offset`, for another pass over a document whose sections
  /// need it (a file whose formats come after its custom creatives, or that gives a section
  /// twice).
  ///
  /// - Throws: ``StoreLoadError`` (empty path) when it cannot.
  mutating func seek(to offset: Int) throws(StoreLoadError)
}

/// A document in memory, read at most `maximumRead` bytes at a time (tests choose small reads
/// to split a document at every position).
public struct StoreBytes: StoreByteSource {
  private let bytes: UnsafeRawBufferPointer
  private let maximumRead: Int
  private var position = 0

  /// The source of `bytes`, which must stay valid while it is read.
  public init(_ bytes: UnsafeRawBufferPointer, maximumRead: Int = .max) {
    self.bytes = bytes
    self.maximumRead = max(1, maximumRead)
  }

  public var size: Int? { bytes.count }

  public mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    let count = min(buffer.count, maximumRead, bytes.count - position)
    guard count > 0 else { return 0 }
    buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + position, byteCount: count)
    position += count
    return count
  }

  public mutating func seek(to offset: Int) {
    position = min(max(0, offset), bytes.count)
  }
}
