/// The credentials of a custom event source (`GADMediationCredentials`): the settings the
/// publisher gave the line item.
public struct MediationCredentials: Sendable, Equatable {
  /// The key under which a custom event's parameter reaches its adapter.
  public static let parameterKey = "parameter"

  /// The server settings; a custom event has one, ``parameterKey``.
  public var settings: [String: String]

  /// Creates credentials.
  public init(settings: [String: String]) {
    self.settings = settings
  }

  /// The custom event's `parameter` (usually the network's ad unit ID), if given.
  public var parameter: String? { settings[Self.parameterKey] }
}
