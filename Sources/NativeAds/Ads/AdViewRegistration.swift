/// The native ad view registered for a system-defined ad: which asset views
/// are clickable and which are only displayed.
public struct AdViewRegistration: Sendable, Equatable {
  /// The clickable assets, canonical and without duplicates, in registration order.
  public var clickable: [NativeAssetKey]
  /// The non-clickable assets, canonical and without duplicates, in registration order.
  public var nonclickable: [NativeAssetKey]

  /// Creates a registration.
  public init(clickable: [NativeAssetKey], nonclickable: [NativeAssetKey]) {
    self.clickable = clickable
    self.nonclickable = nonclickable
  }
}
