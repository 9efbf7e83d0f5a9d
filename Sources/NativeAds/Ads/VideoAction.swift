/// An action of the custom video controls. Raw values are the SDK's action names.
public enum VideoAction: String, Sendable, CaseIterable {
  /// Start or resume playback (from the start after the end).
  case play
  /// Freeze playback where it is.
  case pause
  /// Stop and go back to the first frame.
  case stop
  /// Turn the sound off.
  case mute
  /// Turn the sound on.
  case unmute
}
