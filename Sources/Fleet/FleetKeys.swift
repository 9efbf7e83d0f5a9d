/// The Redis keys of one fleet (`--fleet NAME`), all under `na:NAME:`, so fleets on one Redis
/// never meet.
///
/// Keys of one ad share the ad's hash tag (`na:NAME:ad:{ID}`), so that the atomic change of an
/// ad touches one slot and ads spread over a Redis Cluster's masters. The fleet-wide keys
/// share the fleet's tag (`{na:NAME}:...`): the event sequence, the event log, each process's
/// inbox, the published-version markers and the process counter, which the publish script
/// writes together.
struct FleetKeys: Sendable {
  let fleet: String
  private let tag: String

  init(fleet: String) {
    self.fleet = fleet
    tag = "{na:\(fleet)}"
  }

  /// The ad's hash: `rec` (its facts), `st` (its state), `v` (the state's version), `ob` and
  /// `ov` (the outbox: what the change to version `ov` still has to publish).
  func ad(_ id: String) -> String { "na:\(fleet):ad:{\(id)}" }

  /// The last event sequence number handed out.
  var sequence: String { tag + ":seq" }
  /// The event log: a stream whose entry IDs are `<sequence>-1`.
  var events: String { tag + ":events" }
  /// The time of the latest event (Redis's clock, never going back).
  var eventTime: String { tag + ":time" }
  /// The newest published outbox version of ad `id`.
  func published(_ id: String) -> String { tag + ":pub:" + id }
  /// What process `number` is to deliver to its connections (events, custom clicks, adapter
  /// notices recorded elsewhere).
  func inbox(_ number: UInt64) -> String { tag + ":inbox:" + String(number) }
  /// The inventory the fleet started with: the first joining process's (`StartStore`).
  var storeBase: String { tag + ":store:base" }
  /// Every store change since, in order: each a store request as its client sent it.
  var storeChanges: String { tag + ":store:changes" }
  /// The counter that numbers the processes joining the fleet.
  var processes: String { tag + ":processes" }
}
