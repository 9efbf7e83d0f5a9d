import CLibUV
import Glibc

/// Heap storage for libuv handles: allocated before `uv_*_init`, freed only in the close
/// callback.
enum UVHandle {
  static func allocate<T>(_ type: uv_handle_type, as: T.Type) -> UnsafeMutablePointer<T> {
    let size = max(uv_handle_size(type), MemoryLayout<T>.size)
    return calloc(1, size)!.bindMemory(to: T.self, capacity: 1)
  }

  static func free(_ handle: UnsafeMutablePointer<uv_handle_t>) {
    Glibc.free(UnsafeMutableRawPointer(handle))
  }

  static func asStream<T>(_ p: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<uv_stream_t> {
    UnsafeMutableRawPointer(p).assumingMemoryBound(to: uv_stream_t.self)
  }

  static func asHandle<T>(_ p: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<uv_handle_t> {
    UnsafeMutableRawPointer(p).assumingMemoryBound(to: uv_handle_t.self)
  }
}
