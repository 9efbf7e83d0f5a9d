/// The kind of a native ad: the SDK's system-defined native format, or a publisher-defined
/// custom native format.
///
/// The raw values are the wire names of the ad types a request asks for and an ad's kind.
public enum AdKind: String, Sendable, CaseIterable {
  /// The system-defined native format (`GADNativeAd`): headline, body, icon, images and so on.
  case native
  /// A custom native format (`GADCustomNativeAd`) defined by the publisher in Ad Manager.
  case customNative
}
