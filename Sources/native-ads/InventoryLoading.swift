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
    let bytes = try readFile(path)
    do {
      try bytes.withUnsafeBytes { raw in try StoreLoader.load(raw, into: inventory) }
    } catch {
      throw Failure(description: "\(path): \(error)")
    }
    return inventory
  }

  private static func readFile(_ path: String) throws(Failure) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw Failure(description: "\(path): \(String(cString: strerror(errno)))")
    }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw Failure(description: "\(path): \(String(cString: strerror(errno)))")
      }
      if n == 0 { break }
      bytes.append(contentsOf: chunk[0..<n])
    }
    return bytes
  }
}
