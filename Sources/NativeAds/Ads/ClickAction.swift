/// What the caller should do after a click. Raw values are the names callers see.
public enum ClickAction: String, Sendable, CaseIterable {
  /// The custom click handler the caller enabled took the click; open nothing.
  case customClickHandler
  /// Open the deep link given in the outcome.
  case deepLink
  /// Open the landing page given in the outcome.
  case landingPage
  /// Open the AdChoices page given in the outcome (the click was not counted).
  case adChoices
  /// A mediated ad whose adapter handles its own clicks: the adapter was told
  /// (``MediatedNativeAdForwarding/handleClick(assetKey:adId:)``) and records the click itself
  /// with ``MediationNativeAdEventDelegate/reportClick()``; open nothing.
  case adapter
  /// Nothing to open: the click was not recorded (see ``ClickOutcome/reason``), or it was
  /// recorded on a mediated ad that has neither a landing page nor an openable deep link.
  case none
}
