import Glibc

/// Log lines on stderr (never stdout, which carries protocol bytes only).
enum LogLevel: Int, Comparable, CaseIterable {
  case error = 0
  case warn, info, debug

  init?(name: String) {
    switch name.lowercased() {
    case "error": self = .error
    case "warn", "warning": self = .warn
    case "info": self = .info
    case "debug": self = .debug
    default: return nil
    }
  }

  var name: String {
    switch self {
    case .error: "error"
    case .warn: "warn"
    case .info: "info"
    case .debug: "debug"
    }
  }

  static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}

/// The process logger. Loop-thread only (set once at start-up).
struct Log {
  var level: LogLevel = .info

  func write(_ level: LogLevel, _ message: @autoclosure () -> String) {
    guard level <= self.level else { return }
    Log.line("native-ads: \(level.name): \(message())")
  }

  func error(_ m: @autoclosure () -> String) { write(.error, m()) }
  func warn(_ m: @autoclosure () -> String) { write(.warn, m()) }
  func info(_ m: @autoclosure () -> String) { write(.info, m()) }
  func debug(_ m: @autoclosure () -> String) { write(.debug, m()) }

  /// Writes one raw line to stderr, whatever the level.
  static func line(_ text: String) {
    var text = text + "\n"
    text.withUTF8 { u in
      var off = 0
      while off < u.count {
        let n = Glibc.write(2, u.baseAddress! + off, u.count - off)
        if n <= 0 {
          if errno == EINTR { continue }
          return
        }
        off += n
      }
    }
  }
}
