/// An action on a video controller (`videoControl`).
public enum VideoAction: String, Sendable, CaseIterable {
  case play, pause, stop, mute, unmute
}
