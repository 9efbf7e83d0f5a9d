import Glibc
import JSONRPC
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
      var loadOptions = StoreLoadOptions(
        maximumItemBytes: options.maxStoreItemBytes,
        progress: StoreLoadProgress(clock: monotonicSeconds, write: Log.line))
      loadOptions.maximumAdTrackers = options.maxAdTrackers
      let summary = try StoreLoader.load(from: file, into: inventory, options: loadOptions)
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

  // MARK: A fleet's start-up inventory

  /// This process's start-up inventory as a fleet keeps it: a first line saying what it is
  /// (`{"builtin":true,"storeBytes":N,"maxAdTrackers":64}`), then the store file's bytes.
  /// Processes with the same options offer the same bytes, and a process that joins a fleet
  /// started with other ones serves the fleet's (contract section 11), and holds store changes
  /// to the fleet's `--max-ad-trackers`, so that a change fails the same way everywhere.
  static func fleetStartStore(for options: Options) throws(Failure) -> [UInt8] {
    var file: [UInt8] = []
    if let path = options.storeFile {
      do throws(StoreLoadError) {
        var reader = try StoreFile(path: path)
        defer { reader.close() }
        file = try reader.readAll()
      } catch {
        throw Failure(description: "\(path): \(error)")
      }
    }
    let builtIn = options.storeFile == nil || options.withBuiltIn
    let head: JSONValue = .object([
      ("builtin", .bool(builtIn)), ("storeBytes", .int(file.count)),
      ("maxAdTrackers", .int(options.maxAdTrackers)),
    ])
    return Array(head.jsonText.utf8) + [UInt8(ascii: "\n")] + file
  }

  /// The inventory a fleet's start-up store (``fleetStartStore(for:)``'s encoding) describes,
  /// and the fleet's `--max-ad-trackers` (this process's when the store does not say).
  static func inventory(fromFleet bytes: [UInt8], options: Options) throws(Failure) -> (
    inventory: Inventory, maxAdTrackers: Int
  ) {
    guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")),
      let head = try? JSONParser().parseValue(String(decoding: bytes[..<newline], as: UTF8.self))
    else { throw Failure(description: "the fleet's start-up store does not read") }
    let builtIn = head["builtin"] == .bool(true)
    var maxAdTrackers = options.maxAdTrackers
    if case .number(let text)? = head["maxAdTrackers"], let given = Int(text), given > 0 {
      maxAdTrackers = given
    }
    let inventory = builtIn ? StoreLoader.builtInInventory() : Inventory()
    let file = bytes[(newline + 1)...]
    guard !file.isEmpty else { return (inventory, maxAdTrackers) }
    var failure: StoreLoadError?
    Array(file).withUnsafeBytes { raw in
      do throws(StoreLoadError) {
        var loadOptions = StoreLoadOptions()
        loadOptions.maximumAdTrackers = maxAdTrackers
        _ = try StoreLoader.load(from: StoreBytes(raw), into: inventory, options: loadOptions)
      } catch {
        failure = error
      }
    }
    if let failure { throw Failure(description: "the fleet's start-up store: \(failure)") }
    return (inventory, maxAdTrackers)
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

extension StoreFile {
  /// The whole file.
  mutating func readAll() throws(StoreLoadError) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      var failure: StoreLoadError?
      var count = 0
      chunk.withUnsafeMutableBytes { raw in
        do throws(StoreLoadError) {
          count = try read(into: raw)
        } catch {
          failure = error
        }
      }
      if let failure { throw failure }
      if count == 0 { return bytes }
      bytes += chunk[..<count]
    }
  }
}
