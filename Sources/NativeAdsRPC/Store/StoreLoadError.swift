/// A store document that cannot be loaded: where, and what is wrong.
public struct StoreLoadError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The JSON path of the offending value (`creatives[3].assets.MainImage.width`); empty for
  /// the document itself.
  public var path: String
  public var problem: String

  public init(path: String, problem: String) {
    self.path = path
    self.problem = problem
  }

  public var description: String { path.isEmpty ? problem : "\(path): \(problem)" }
}
