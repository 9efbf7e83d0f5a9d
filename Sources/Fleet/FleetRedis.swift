import NativeAds
import RedisClient

/// The fleet's Redis connection, with its scripts: runs a ``FleetScript`` by its SHA1
/// (`EVALSHA`), sending the body (`EVAL`) when the server answers `NOSCRIPT` (a Redis
/// restarted, or another node of a cluster). Every failure to get an answer becomes a
/// ``StoreUnavailable``.
///
/// Loop-thread only.
final class FleetRedis {
  let connection: any RedisCommandSender
  /// Each script's SHA1, as `SCRIPT LOAD` answered it.
  private var shas: [String: String] = [:]

  init(connection: any RedisCommandSender) {
    self.connection = connection
  }

  /// Loads every script (`SCRIPT LOAD`), learning their SHA1s.
  func loadScripts(completion: @escaping (Result<Void, StoreUnavailable>) -> Void) {
    var left = FleetScript.all.count
    var failure: StoreUnavailable?
    for script in FleetScript.all {
      connection.send("SCRIPT", "LOAD", script.body) { [self] result in
        switch result {
        case .success(let reply):
          if let sha = reply.text, reply.errorMessage == nil {
            shas[script.name] = sha
          } else {
            failure = StoreUnavailable(
              reason: "SCRIPT LOAD \(script.name): \(reply.errorMessage ?? "no SHA1")")
          }
        case .failure(let error): failure = StoreUnavailable(reason: error.description)
        }
        left -= 1
        if left == 0 { completion(failure.map { .failure($0) } ?? .success(())) }
      }
    }
  }

  /// Runs `script` on `keys` and `arguments`; an error reply is a failure too (a script's
  /// errors are the service's bugs or a server out of memory).
  func run(
    _ script: FleetScript, keys: [String], arguments: [[UInt8]],
    completion: @escaping (Result<RedisReply, StoreUnavailable>) -> Void
  ) {
    let tail = [Array(String(keys.count).utf8)] + keys.map { Array($0.utf8) } + arguments
    func eval() {
      connection.send([Array("EVAL".utf8), Array(script.body.utf8)] + tail, timeoutMs: nil) {
        result in
        completion(Self.answer(result, script))
      }
    }
    guard let sha = shas[script.name] else { return eval() }
    connection.send([Array("EVALSHA".utf8), Array(sha.utf8)] + tail, timeoutMs: nil) { result in
      if case .success(.error(let message)) = result, message.hasPrefix("NOSCRIPT") {
        return eval()
      }
      completion(Self.answer(result, script))
    }
  }

  /// Sends a plain command; an error reply is a failure.
  func command(
    _ arguments: [String], completion: @escaping (Result<RedisReply, StoreUnavailable>) -> Void
  ) {
    connection.send(arguments.map { Array($0.utf8) }, timeoutMs: nil) { result in
      completion(Self.answer(result, nil))
    }
  }

  private static func answer(_ result: Result<RedisReply, RedisError>, _ script: FleetScript?)
    -> Result<RedisReply, StoreUnavailable>
  {
    switch result {
    case .success(.error(let message)):
      let what = script.map { "script \($0.name)" } ?? "Redis"
      return .failure(StoreUnavailable(reason: "\(what): \(message)"))
    case .success(let reply): return .success(reply)
    case .failure(let error): return .failure(StoreUnavailable(reason: error.description))
    }
  }
}
