/// What the caller should do after a click. Raw values are the wire names.
public enum ClickAction: String, Sendable, CaseIterable {
  /// The custom click handler took the click (a `customClick` notification was sent); open
  /// nothing.
  case customClickHandler
  /// Open the deep link given in the outcome.
  case deepLink
  /// Open the landing page given in the outcome.
  case landingPage
  /// Open the AdChoices page given in the outcome (the click was not counted).
  case adChoices
  /// Nothing to open: the click was not recorded (see ``ClickOutcome/reason``).
  case none
}
