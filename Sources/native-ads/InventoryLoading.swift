import Glibc
import NativeAds
import NativeAdsRPC

/// Builds the inventory the options ask for: the built-in one, a store file, or both.
enum InventoryLoading {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  static func inventory(for options: Options) throws(Failure) -> Inventory {
    guard let path = options.storeFile else { return StoreLoader.builtInInventory() }
    let inventory = options.withBuiltIn ? StoreLoader.builtInInventory() : Inventory()
    do throws(StoreLoadError) {
      let file = try StoreFile(path: path)
      defer { file.close() }
      let summary = try StoreLoader.load(
        from: file, into: inventory,
        options: StoreLoadOptions(
          maximumItemBytes: options.maxStoreItemBytes,
          progress: StoreLoadProgress(clock: monotonicSeconds, write: Log.line)))
      Log(level: options.logLevel).debug(
        "store: \(path): \(summary.formats) formats, \(summary.creatives) creatives "
          + "(\(summary.packedCreatives) packed in \(summary.packedBytes) bytes), "
          + "\(summary.adUnits) ad units; \(summary.bytes) bytes read in \(summary.passes) "
          + (summary.passes == 1 ? "pass" : "passes"))
    } catch {
      throw Failure(description: "\(path): \(error)")
    }
    return inventory
  }

  /// Seconds on the monotonic clock.
  static func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }
}

/// A store file read with `read(2)` in the loader's chunks; a file that cannot seek (a pipe)
/// is read into memory first, so that a second pass stays possible.
struct StoreFile: StoreByteSource {
  private let fd: Int32
  let size: Int?
  /// The whole document, for a file that cannot seek.
  private var memory: [UInt8]?
  private var position = 0

  init(path: String) throws(StoreLoadError) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw Self.failure() }
    self.fd = fd
    var status = stat()
    if fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
      size = Int(status.st_size)
      return
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        let error = Self.failure()
        Glibc.close(fd)
        throw error
      }
      if n == 0 { break }
      bytes.append(contentsOf: chunk[0..<n])
    }
    memory = bytes
    size = bytes.count
  }

  func close() { Glibc.close(fd) }

  private static func failure() -> StoreLoadError {
    StoreLoadError(path: "", problem: String(cString: strerror(errno)))
  }

  mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(StoreLoadError) -> Int {
    if let memory {
      let count = min(buffer.count, memory.count - position)
      guard count > 0 else { return 0 }
      memory.withUnsafeBytes {
        buffer.baseAddress!.copyMemory(from: $0.baseAddress! + position, byteCount: count)
      }
      position += count
      return count
    }
    while true {
      let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
      if n >= 0 { return n }
      if errno != EINTR { throw Self.failure() }
    }
  }

  mutating func seek(to offset: Int) throws(StoreLoadError) {
    if memory != nil {
      position = offset
      return
    }
    guard lseek(fd, off_t(offset), SEEK_SET) >= 0 else { throw Self.failure() }
  }
}
