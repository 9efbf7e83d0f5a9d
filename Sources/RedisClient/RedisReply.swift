import CHiredis

/// One reply from Redis (RESP2), copied out of hiredis's reply object.
public enum RedisReply: Sendable, Equatable {
  /// A bulk string: any bytes.
  case string([UInt8])
  /// A status reply (`OK`, `QUEUED`...).
  case status(String)
  /// An error reply (`ERR ...`, `NOSCRIPT ...`, `MOVED 3999 127.0.0.1:7001`...).
  case error(String)
  case integer(Int64)
  /// A null bulk string or null array.
  case null
  indirect case array([RedisReply])

  init(_ reply: UnsafePointer<redisReply>) {
    let r = reply.pointee
    func bytes() -> [UInt8] {
      guard let str = r.str, r.len > 0 else { return [] }
      return str.withMemoryRebound(to: UInt8.self, capacity: r.len) {
        Array(UnsafeBufferPointer(start: $0, count: r.len))
      }
    }
    switch r.type {
    case REDIS_REPLY_STRING: self = .string(bytes())
    case REDIS_REPLY_STATUS: self = .status(String(decoding: bytes(), as: UTF8.self))
    case REDIS_REPLY_ERROR: self = .error(String(decoding: bytes(), as: UTF8.self))
    case REDIS_REPLY_INTEGER: self = .integer(Int64(r.integer))
    case REDIS_REPLY_ARRAY:
      var elements: [RedisReply] = []
      elements.reserveCapacity(r.elements)
      for i in 0..<r.elements {
        if let element = r.element[i] {
          elements.append(RedisReply(element))
        } else {
          elements.append(.null)
        }
      }
      self = .array(elements)
    default: self = .null
    }
  }

  /// A bulk string or status as text; nil otherwise.
  public var text: String? {
    switch self {
    case .string(let bytes): return String(decoding: bytes, as: UTF8.self)
    case .status(let text): return text
    default: return nil
    }
  }

  /// An integer reply, or a bulk string holding a decimal integer.
  public var integer: Int64? {
    switch self {
    case .integer(let value): return value
    case .string(let bytes): return Int64(String(decoding: bytes, as: UTF8.self))
    default: return nil
    }
  }

  /// The elements of an array reply; nil otherwise.
  public var elements: [RedisReply]? {
    if case .array(let elements) = self { return elements }
    return nil
  }

  /// The message of an error reply; nil otherwise.
  public var errorMessage: String? {
    if case .error(let message) = self { return message }
    return nil
  }

  public var isNull: Bool { self == .null }
}
