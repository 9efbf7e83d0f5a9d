import Foundation
import Glibc

/// A real `redis-server` for a test, in a directory of its own, listening on a Unix socket
/// there (no port to race for) or, when asked, on a free loopback TCP port too. Stopped by its
/// pid when the test is done (`deinit`), and its directory removed.
final class RedisServer {
  let directory: String
  let socketPath: String
  /// The loopback TCP port, when asked for one.
  private(set) var port: Int?
  private let arguments: [String]
  private var process: Process?

  init(tcp: Bool = false, arguments: [String] = []) throws {
    var template = Array("/tmp/na-redis-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw Failure("mkdtemp failed") }
    directory = String(cString: made)
    socketPath = directory + "/redis.sock"
    self.arguments = arguments
    if tcp { port = try Self.freePort() }
    try start()
  }

  deinit {
    stop()
    try? FileManager.default.removeItem(atPath: directory)
  }

  var unixURL: String { "unix:" + socketPath }

  /// Starts the server (again) and waits until it accepts connections.
  func start() throws {
    guard process == nil else { return }
    guard let binary = Self.binary else {
      throw Failure("redis-server not found on PATH: `make deps` installs it")
    }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: binary)
    p.arguments =
      [
        "--port", String(port ?? 0), "--bind", "127.0.0.1", "--unixsocket", socketPath,
        "--unixsocketperm", "700", "--save", "", "--appendonly", "no", "--dir", directory,
        "--logfile", directory + "/redis.log", "--daemonize", "no",
      ] + arguments
    try p.run()
    process = p
    let deadline = Date().addingTimeInterval(10)
    while !Self.accepts(socketPath) {
      guard p.isRunning, Date() < deadline else {
        stop()
        throw Failure("redis-server did not start: \(log.suffix(500))")
      }
      usleep(2_000)
    }
  }

  /// Stops the server (SIGKILL by default: nothing is flushed) and waits for it to exit.
  func stop(signal: Int32 = SIGKILL) {
    guard let p = process else { return }
    process = nil
    if p.isRunning { kill(p.processIdentifier, signal) }
    p.waitUntilExit()
  }

  /// Freezes the server (SIGSTOP): it holds its connections but answers nothing.
  func suspend() { if let p = process { kill(p.processIdentifier, SIGSTOP) } }
  func resume() { if let p = process { kill(p.processIdentifier, SIGCONT) } }

  var log: String {
    (try? String(contentsOfFile: directory + "/redis.log", encoding: .utf8)) ?? ""
  }

  static let binary: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for dir in path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/sbin"] {
      let candidate = dir + "/redis-server"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }()

  private static func accepts(_ path: String) -> Bool {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      let bytes = Array(path.utf8.prefix(raw.count - 1))
      raw.copyBytes(from: bytes + [0])
    }
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
      }
    }
  }

  /// A loopback port nobody listens on now (the kernel's pick for port 0).
  private static func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw Failure("socket failed") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else { throw Failure("bind failed") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}
