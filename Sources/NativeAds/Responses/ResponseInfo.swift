/// What a load did (`GADResponseInfo`): carried by every loaded ad and every load failure.
///
/// A value kept in one immutable reference: the load, its reply and every ad it made share it
/// at the cost of one reference count (a copy of the fields would count each string and
/// array). Setting a member makes a new one. The entry of the source that filled is kept once:
/// a load that filled at its first source (the common one) keeps no array at all.
public struct ResponseInfo: Sendable, Equatable {
  private final class Fields: Sendable {
    let identifier: ResponseIdentifier
    let loaded: AdNetworkInfo?
    /// The entries tried, in order, but the last when it is `loaded`'s.
    let triedBeforeLoaded: [AdNetworkInfo]
    let loadedIsLastTried: Bool
    let isTestRequest: Bool?

    /// Any shape: `tried` is every entry, whichever `loaded` is.
    init(
      _ identifier: ResponseIdentifier, _ loaded: AdNetworkInfo?, _ tried: [AdNetworkInfo],
      _ isTestRequest: Bool?
    ) {
      self.identifier = identifier
      self.loaded = loaded
      self.isTestRequest = isTestRequest
      if let loaded, tried.last == loaded {
        triedBeforeLoaded = Array(tried.dropLast())
        loadedIsLastTried = true
      } else {
        triedBeforeLoaded = tried
        loadedIsLastTried = false
      }
    }

    /// A load that filled: `loaded` was tried last, after `before`.
    init(
      _ identifier: ResponseIdentifier, loaded: AdNetworkInfo, after before: [AdNetworkInfo],
      _ isTestRequest: Bool?
    ) {
      self.identifier = identifier
      self.loaded = loaded
      self.triedBeforeLoaded = before
      self.loadedIsLastTried = true
      self.isTestRequest = isTestRequest
    }
  }

  private var fields: Fields

  /// An identifier for this response, fresh for every load.
  public var responseIdentifier: String {
    get { fields.identifier.description }
    set { identifier = ResponseIdentifier(newValue) }
  }
  /// ``responseIdentifier`` as the load keeps it (no string made to read it).
  public var identifier: ResponseIdentifier {
    get { fields.identifier }
    set {
      fields = Fields(newValue, fields.loaded, adNetworkInfoArray, isTestRequest)
    }
  }
  /// The source that filled the request, or nil when none did.
  public var loadedAdNetworkResponseInfo: AdNetworkInfo? {
    get { fields.loaded }
    set { fields = Fields(identifier, newValue, adNetworkInfoArray, isTestRequest) }
  }
  /// Calls `body` with the names and latency of ``loadedAdNetworkResponseInfo`` when it has
  /// no error (the entry of every load that filled), read in place: no copy of the whole
  /// entry, whose optional error a copy counts too, and no count of the names either (they are
  /// lent to `body`). Nil, and `body` not called, otherwise.
  public func withLoadedWithoutError<R>(
    _ body: (_ className: String, _ sourceName: String, _ latency: Double) -> R
  ) -> R? {
    guard let loaded = fields.loaded, !loaded.hasError else { return nil }
    return body(loaded.adNetworkClassName, loaded.adSourceName, loaded.latency)
  }
  /// Every source tried, in order.
  public var adNetworkInfoArray: [AdNetworkInfo] {
    get {
      guard fields.loadedIsLastTried, let loaded = fields.loaded else {
        return fields.triedBeforeLoaded
      }
      return fields.triedBeforeLoaded + [loaded]
    }
    set { fields = Fields(identifier, fields.loaded, newValue, isTestRequest) }
  }
  /// The request's `isTestRequest`, when it gave one.
  public var isTestRequest: Bool? {
    get { fields.isTestRequest }
    set { fields = Fields(identifier, fields.loaded, adNetworkInfoArray, newValue) }
  }

  /// Whether the source that filled is the last one tried (as it is for every load that
  /// filled): ``adNetworkInfoArray`` is then ``triedBeforeLoaded`` followed by the loaded
  /// entry, and a writer can copy the entry it wrote instead of writing it again.
  public var loadedIsLastTried: Bool { fields.loadedIsLastTried }

  /// ``adNetworkInfoArray`` without its last entry when that is the loaded source's
  /// (``loadedIsLastTried``), else all of it. Read in place: empty, and no array made, for a
  /// load that filled at its first source.
  public var triedBeforeLoaded: [AdNetworkInfo] { fields.triedBeforeLoaded }

  /// Creates response info.
  public init(
    responseIdentifier: String, loadedAdNetworkResponseInfo: AdNetworkInfo?,
    adNetworkInfoArray: [AdNetworkInfo]
  ) {
    fields = Fields(
      ResponseIdentifier(responseIdentifier), loadedAdNetworkResponseInfo, adNetworkInfoArray,
      nil)
  }

  public static func == (a: ResponseInfo, b: ResponseInfo) -> Bool {
    a.fields === b.fields
      || (a.identifier == b.identifier
        && a.loadedAdNetworkResponseInfo == b.loadedAdNetworkResponseInfo
        && a.adNetworkInfoArray == b.adNetworkInfoArray && a.isTestRequest == b.isTestRequest)
  }
}

extension ResponseInfo {
  /// Response info for a load whose request said `isTestRequest` (echoed); `tried` is every
  /// entry.
  init(
    identifier: ResponseIdentifier, isTestRequest: Bool?, loaded: AdNetworkInfo?,
    tried: [AdNetworkInfo]
  ) {
    fields = Fields(identifier, loaded, tried, isTestRequest)
  }

  /// Response info for a load that filled with `loaded`, tried after the entries `before`.
  init(
    identifier: ResponseIdentifier, isTestRequest: Bool?, loaded: AdNetworkInfo,
    after before: [AdNetworkInfo]
  ) {
    fields = Fields(identifier, loaded: loaded, after: before, isTestRequest)
  }
}
