/// The kinds of recorded ad events. Raw values are the wire names.
public enum AdEventKind: String, Sendable, CaseIterable {
  /// The ad's impression was recorded (once per ad).
  case didRecordImpression
  /// A click on the ad was recorded.
  case didRecordClick
}
