/// A version as the SDK reports an adapter's or its network SDK's (`GADVersionNumber`):
/// major.minor.patch.
public struct AdapterVersion: Sendable, Equatable, CustomStringConvertible {
  /// The major version.
  public var major: Int
  /// The minor version.
  public var minor: Int
  /// The patch version.
  public var patch: Int

  /// Creates a version.
  public init(major: Int, minor: Int, patch: Int) {
    self.major = major
    self.minor = minor
    self.patch = patch
  }

  /// The version of a four-part adapter version `a.b.c.d`, as Google's adapters report it:
  /// `a.b.(c*100 + d)`, so `1.0.0.0` is 1.0.0 and `8.13.0.1` is 8.13.1.
  public static func fromFourPart(_ a: Int, _ b: Int, _ c: Int, _ d: Int) -> AdapterVersion {
    AdapterVersion(major: a, minor: b, patch: c * 100 + d)
  }

  /// `major.minor.patch`, e.g. `1.0.0`.
  public var description: String { "\(major).\(minor).\(patch)" }
}
