import JSONRPC
import NativeAds

/// The store changes of a fleet, in one order for every process (a Redis list, in `Fleet`).
public protocol StoreChangeLog: AnyObject {
  /// How many entries the log holds, and those from index `from` on (oldest first): one small
  /// read when nothing changed.
  func entries(
    from: Int,
    completion: @escaping (Result<(count: Int, new: [[UInt8]]), StoreUnavailable>) -> Void)
  /// Appends `entry` as entry `index` if the log holds exactly `index` entries; false when it
  /// holds more (another process appended first).
  func append(
    _ entry: [UInt8], at index: Int, completion: @escaping (Result<Bool, StoreUnavailable>) -> Void)
}

/// This process's copy of a fleet's store, kept up with the fleet's ``StoreChangeLog``.
///
/// Each entry of the log is a store request (`store.putCreative`...) as a client sent it; it is
/// applied by dispatching it again, here, on the same methods (their decoding, their
/// validation, their caches), so every process applies every change by the same rules and in
/// the same order. A change that fails its validation fails the same way everywhere.
///
/// - A load first catches up (``catchUp(_:)``): no load is served from a store older than the
///   last change any process acknowledged. Loads that arrive while a check is in flight share
///   the next one.
/// - A change (``submit(_:completion:)``) is appended at the end of the log as this process
///   has it, then applied; when another process appended first, this one catches up and tries
///   again.
///
/// Loop-thread only; one operation at a time.
public final class StoreReplica {
  private enum Operation {
    case catchUp([(Result<Void, StoreUnavailable>) -> Void])
    case submit([UInt8], (Result<JSONValue, StoreUnavailable>) -> Void)
  }

  let log: any StoreChangeLog
  /// Applies one entry; answers the reply it produced (`{"result"...}` or `{"error"...}`).
  var apply: (([UInt8]) -> JSONValue)?
  /// Entries applied so far.
  public private(set) var applied = 0
  private var queue: [Operation] = []
  private var running = false
  /// How many times a change is appended again when other processes keep appending first.
  let maxAttempts = 32

  public init(log: any StoreChangeLog) {
    self.log = log
  }

  /// Calls `done` once this process has applied every change in the log as of now.
  public func catchUp(_ done: @escaping (Result<Void, StoreUnavailable>) -> Void) {
    if running, case .catchUp(var waiters)? = queue.last {
      waiters.append(done)
      queue[queue.count - 1] = .catchUp(waiters)
    } else {
      queue.append(.catchUp([done]))
    }
    runNext()
  }

  /// Appends `request` (a whole store request, `{"jsonrpc":"2.0","id":0,"method":...}`) to the
  /// log, applies it, and answers the reply applying it produced.
  public func submit(
    _ request: [UInt8], completion: @escaping (Result<JSONValue, StoreUnavailable>) -> Void
  ) {
    queue.append(.submit(request, completion))
    runNext()
  }

  private func runNext() {
    guard !running, !queue.isEmpty else { return }
    running = true
    let operation = queue.removeFirst()
    let finish = { [self] in
      running = false
      runNext()
    }
    switch operation {
    case .catchUp(let waiters):
      pull { result in
        for done in waiters { done(result) }
        finish()
      }
    case .submit(let request, let completion):
      append(request, attempt: 1) { result in
        completion(result)
        finish()
      }
    }
  }

  /// Applies what the log holds beyond what this process applied.
  private func pull(_ done: @escaping (Result<Void, StoreUnavailable>) -> Void) {
    log.entries(from: applied) { [self] result in
      switch result {
      case .failure(let unavailable): done(.failure(unavailable))
      case .success(let found):
        for entry in found.new { _ = apply?(entry) }
        applied += found.new.count
        done(.success(()))
      }
    }
  }

  private func append(
    _ request: [UInt8], attempt: Int,
    completion: @escaping (Result<JSONValue, StoreUnavailable>) -> Void
  ) {
    log.append(request, at: applied) { [self] result in
      switch result {
      case .failure(let unavailable): completion(.failure(unavailable))
      case .success(true):
        applied += 1
        completion(.success(apply?(request) ?? .null))
      case .success(false):
        guard attempt < maxAttempts else {
          return completion(
            .failure(StoreUnavailable(reason: "the store changed \(attempt) times meanwhile")))
        }
        pull { pulled in
          if case .failure(let unavailable) = pulled { return completion(.failure(unavailable)) }
          self.append(request, attempt: attempt + 1, completion: completion)
        }
      }
    }
  }
}
