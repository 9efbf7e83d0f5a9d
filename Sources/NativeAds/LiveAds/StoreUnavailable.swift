/// A shared store (a fleet's Redis) could not be reached in time: the call cannot be served
/// now, and nothing it asked for happened unless a later read shows it did. The RPC layer
/// answers `-32003` `Store unavailable` (contract section 11).
public struct StoreUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
  /// Why, for the error's data and the logs ("Redis did not answer within 2000 ms").
  public var reason: String

  /// Set when the store answered that the ad is gone (released or expired by another
  /// process between its lookup and its change): the call is answered as for an unknown ad.
  public var adIsGone = false

  public init(reason: String) {
    self.reason = reason
  }

  /// The ad was released or expired elsewhere meanwhile.
  public static let adGone: StoreUnavailable = {
    var gone = StoreUnavailable(reason: "the ad is gone")
    gone.adIsGone = true
    return gone
  }()

  public var description: String { "store unavailable: \(reason)" }
}
