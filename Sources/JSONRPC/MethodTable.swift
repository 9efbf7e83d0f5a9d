import Glibc

/// Method names to handlers, looked up by the raw bytes of the `method` string so that the
/// hot path builds no `String`.
struct MethodTable {
  private struct Entry {
    var name: [UInt8]
    var handler: MethodHandler
  }
  private var byLength: [[Entry]] = []
  private(set) var names: [String] = []

  mutating func register(_ name: String, _ handler: @escaping MethodHandler) {
    let bytes = Array(name.utf8)
    while byLength.count <= bytes.count { byLength.append([]) }
    if let i = byLength[bytes.count].firstIndex(where: { $0.name == bytes }) {
      byLength[bytes.count][i].handler = handler
    } else {
      byLength[bytes.count].append(Entry(name: bytes, handler: handler))
      names.append(name)
    }
  }

  func lookup(_ name: UnsafeBufferPointer<UInt8>) -> MethodHandler? {
    guard name.count < byLength.count else { return nil }
    for entry in byLength[name.count] {
      let same = entry.name.withUnsafeBufferPointer {
        name.count == 0 || memcmp($0.baseAddress!, name.baseAddress!, name.count) == 0
      }
      if same { return entry.handler }
    }
    return nil
  }
}
