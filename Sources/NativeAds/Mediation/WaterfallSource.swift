/// One ad source of a mediation waterfall (see ``AdUnit/waterfall``).
public enum WaterfallSource: Sendable, Equatable {
  /// The unit's own creatives (``AdUnit/creativeIDs``), decided as for any unit. Its response
  /// info entry is Google's (`GADMAdapterGoogleAdMobAds`, `Reservation` or `AdMob Network`);
  /// `label` names the source in the store only.
  case inventory(eCPM: Double, label: String?)
  /// A custom event: the adapter registered under `adapterClassName` is asked for a native ad
  /// with `parameter` (its `credentials.settings["parameter"]`) and has `timeoutMs` to answer.
  /// Its response info entry names the class, and `label` (default: the class name) as the
  /// source name.
  case customEvent(
    adapterClassName: String, parameter: String, eCPM: Double, timeoutMs: UInt64, label: String?)

  /// The per-adapter load timeout used when a store gives none (Google's docs leave it open).
  public static let defaultTimeoutMs: UInt64 = 5_000

  /// The source's eCPM: the waterfall asks the highest first.
  public var eCPM: Double {
    switch self {
    case .inventory(let eCPM, _): eCPM
    case .customEvent(_, _, let eCPM, _, _): eCPM
    }
  }

  /// The source's label, if it has one.
  public var label: String? {
    switch self {
    case .inventory(_, let label): label
    case .customEvent(_, _, _, _, let label): label
    }
  }

  /// The sources ordered as a waterfall asks them: by eCPM, highest first; ties keep their
  /// listed order.
  public static func ordered(_ sources: [WaterfallSource]) -> [WaterfallSource] {
    sources.enumerated()
      .sorted { a, b in
        a.element.eCPM != b.element.eCPM ? a.element.eCPM > b.element.eCPM : a.offset < b.offset
      }
      .map(\.element)
  }
}
