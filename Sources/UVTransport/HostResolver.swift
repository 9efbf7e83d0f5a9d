import CLibUV
import Glibc

/// Resolves a host name to a numeric address on libuv's thread pool (`uv_getaddrinfo`), so the
/// loop never blocks on DNS. A numeric IPv4 or IPv6 address answers at once.
///
/// Loop-thread only: `completion` runs on the loop thread, exactly once.
public enum HostResolver {
  /// Hands `completion` the first address of `host` (IPv4 preferred), as text (`127.0.0.1`,
  /// `::1`), or a ``UVError`` naming the host.
  public static func resolve(
    _ host: String, eventLoop: EventLoop,
    completion: @escaping (Result<String, UVError>) -> Void
  ) {
    if isNumeric(host) { return completion(.success(host)) }
    let request = UnsafeMutablePointer<uv_getaddrinfo_t>.allocate(capacity: 1)
    request.pointee.data = Unmanaged.passRetained(Box(host: host, completion: completion))
      .toOpaque()
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    let status = uv_getaddrinfo(
      eventLoop.loop, request,
      { request, status, info in
        let box = Unmanaged<Box>.fromOpaque(request!.pointee.data!).takeRetainedValue()
        request!.deallocate()
        defer { if let info { uv_freeaddrinfo(info) } }
        guard status == 0, let info else {
          return box.completion(.failure(UVError(status, "resolve \(box.host)")))
        }
        box.completion(
          HostResolver.firstAddress(info).map { .success($0) }
            ?? .failure(UVError(Int32(UV_EAI_NONAME.rawValue), "resolve \(box.host)")))
      }, host, nil, &hints)
    if status < 0 {
      Unmanaged<Box>.fromOpaque(request.pointee.data!).release()
      request.deallocate()
      completion(.failure(UVError(status, "resolve \(host)")))
    }
  }

  /// Whether `host` is a numeric IPv4 or IPv6 address.
  public static func isNumeric(_ host: String) -> Bool {
    var v4 = in_addr()
    var v6 = in6_addr()
    return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
  }

  private final class Box {
    let host: String
    let completion: (Result<String, UVError>) -> Void
    init(host: String, completion: @escaping (Result<String, UVError>) -> Void) {
      self.host = host
      self.completion = completion
    }
  }

  /// The first IPv4 address in `list`, else the first IPv6 one.
  private static func firstAddress(_ list: UnsafeMutablePointer<addrinfo>) -> String? {
    var fallback: String?
    var entry: UnsafeMutablePointer<addrinfo>? = list
    while let current = entry {
      var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
      if let address = current.pointee.ai_addr {
        if address.pointee.sa_family == sa_family_t(AF_INET) {
          let status = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
            uv_ip4_name($0, &text, text.count)
          }
          if status == 0 { return text.nulTerminatedString }
        } else if address.pointee.sa_family == sa_family_t(AF_INET6), fallback == nil {
          let status = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
            uv_ip6_name($0, &text, text.count)
          }
          if status == 0 { fallback = text.nulTerminatedString }
        }
      }
      entry = current.pointee.ai_next
    }
    return fallback
  }
}

extension [CChar] {
  /// The text before the first NUL.
  fileprivate var nulTerminatedString: String {
    String(decoding: prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
