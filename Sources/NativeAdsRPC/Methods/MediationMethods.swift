import JSONRPC
import NativeAds

/// `mediation.registerAdapter {"adapterClassName"}` → `{"registered": true}`: this connection
/// answers the loads of that adapter class (`adapter.loadNativeAd` requests).
enum RegisterAdapter: ServiceMethod {
  static let name = "mediation.registerAdapter"
  static let adapterClassName = Field.string("adapterClassName", nonEmpty: true)
  static let result = FlagResult("registered", always: true)
  static var signature: MethodSignature {
    MethodSignature(
      summary: "This connection answers adapter.loadNativeAd for an adapter class.",
      params: [adapterClassName.member],
      result: result.type)
  }

  static func decode(_ params: Params) throws(RPCError) -> String {
    try decoding { () throws(InvalidField) in try params(adapterClassName) }
  }

  static func handle(_ className: String, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    let adapters = context.service.manager.adapters
    guard !adapters.isBuiltIn(className) else {
      throw .invalidParams(field: "adapterClassName", "names a built-in adapter")
    }
    adapters.register(
      className: className, adapter: RemoteAdapter(className: className, session: context.session),
      owner: context.session.id)
    result.write(true, into: &w)
  }
}

/// `mediation.unregisterAdapter {"adapterClassName"}` → `{"unregistered": bool}` (false when
/// this connection had not registered it).
enum UnregisterAdapter: ServiceMethod {
  static let name = "mediation.unregisterAdapter"
  static let result = FlagResult("unregistered")
  static var signature: MethodSignature {
    MethodSignature(
      summary: "Stops answering for an adapter class.",
      params: [RegisterAdapter.adapterClassName.member],
      result: result.type)
  }

  static func decode(_ params: Params) throws(RPCError) -> String {
    try decoding { () throws(InvalidField) in try params(RegisterAdapter.adapterClassName) }
  }

  static func handle(_ className: String, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    let adapters = context.service.manager.adapters
    let mine = adapters.owner(of: className) == context.session.id
    let unregistered = mine && adapters.unregister(className: className)
    result.write(unregistered, into: &w)
  }
}

/// What an adapter reports about the ad it mapped (`adapter.reportImpression`,
/// `adapter.reportClick`, `adapter.reportVideoEvent`, `adapter.reportFullScreen`).
/// Answers `{"recorded": bool}` when sent as a request.
enum AdapterReport {
  /// `adapter.reportVideoEvent` events.
  enum VideoEvent: String, CaseIterable {
    case didPlay, didPause, didEnd, didMute, didUnmute
  }

  /// `adapter.reportFullScreen` events.
  enum ScreenEvent: String, CaseIterable {
    case willPresentScreen, willDismissScreen, didDismissScreen
  }

  /// The delegate of an ad this connection's adapter mapped; 2001 otherwise.
  static func delegate(adId: String, method: String, context: MethodContext) throws(RPCError)
    -> any MediationNativeAdEventDelegate
  {
    let manager = context.service.manager
    let ad = try AdObjectError.reported(by: method) { () throws(AdObjectError) in
      try manager.ad(adId)
    }
    guard let link = ad.mediation,
      (link.forwarding as? RemoteForwarding)?.sessionID == context.session.id,
      let delegate = link.eventDelegate
    else {
      throw AdObjectError.adNotFound(adId: adId).rpcError(method: method)
    }
    return delegate
  }

  /// Checks that this connection's adapter mapped ad `adId`, then records `change` and
  /// answers `{"recorded": bool}` once the store has it.
  static func answer(
    _ change: AdChange, adId: String, method: String, _ context: MethodContext,
    _ w: inout JSONWriter
  ) throws(RPCError) {
    _ = try delegate(adId: adId, method: method, context: context)
    let manager = context.service.manager
    try context.answer(
      method, into: &w, { manager.adapterReport(change, adId: adId, completion: $0) },
      write: { recorded, w in write(recorded, into: &w) })
  }

  /// `{"recorded": bool}`.
  static let recorded = FlagResult("recorded")
  static var result: WireType { recorded.type }

  static func write(_ value: Bool, into w: inout JSONWriter) { recorded.write(value, into: &w) }
}

/// `adapter.reportImpression {"adId"}`: the network saw the impression (counted once).
enum AdapterReportImpression: ServiceMethod {
  static let name = "adapter.reportImpression"
  static var signature: MethodSignature {
    MethodSignature(
      summary: "An adapter that handles impressions reports one (counted once).",
      params: AdIDRequest.params, result: AdapterReport.result, errors: DocumentedError.adErrors)
  }
  static func decode(_ params: Params) throws(RPCError) -> AdIDRequest { try AdIDRequest(params) }
  static func handle(_ request: AdIDRequest, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    try AdapterReport.answer(.adapterImpression, adId: request.adId, method: name, context, &w)
  }
}

/// `adapter.reportClick {"adId"}`: the network handled a click.
enum AdapterReportClick: ServiceMethod {
  static let name = "adapter.reportClick"
  static var signature: MethodSignature {
    MethodSignature(
      summary: "An adapter that handles clicks reports one.", params: AdIDRequest.params,
      result: AdapterReport.result, errors: DocumentedError.adErrors)
  }
  static func decode(_ params: Params) throws(RPCError) -> AdIDRequest { try AdIDRequest(params) }
  static func handle(_ request: AdIDRequest, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    try AdapterReport.answer(.adapterClick, adId: request.adId, method: name, context, &w)
  }
}

/// A report naming one of a fixed set of events: `{"adId", "event"}`, answered
/// `{"recorded": true}` after `forward` hands it to the ad's event delegate.
protocol AdapterEventReport: ServiceMethod
where Request == AdapterEventReportRequest<Event> {
  associatedtype Event: RawRepresentable & CaseIterable where Event.RawValue == String
  static var summary: String { get }
  /// `event`, one of `Event`'s raw values.
  static var eventField: Field<Event> { get }
  /// The change the event reports.
  static func change(_ event: Event) -> AdChange
}

struct AdapterEventReportRequest<Event> {
  var adId: String
  var event: Event
}

extension AdapterEventReport {
  static var signature: MethodSignature {
    MethodSignature(
      summary: summary, params: AdIDRequest.params + [eventField.member],
      result: AdapterReport.result, errors: DocumentedError.adErrors)
  }

  static func decode(_ params: Params) throws(RPCError) -> Request {
    try decoding { () throws(InvalidField) in
      let event = try params(eventField)
      return Request(adId: try params(AdIDRequest.adIdField), event: event)
    }
  }

  static func handle(_ request: Request, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    try AdapterReport.answer(
      change(request.event), adId: request.adId, method: name, context, &w)
  }
}

/// `adapter.reportVideoEvent {"adId", "event"}`: forwarded to the app as a `videoEvent`.
enum AdapterReportVideoEvent: AdapterEventReport {
  static let name = "adapter.reportVideoEvent"
  static let summary = "An adapter reports a video event."
  static let eventField = Field<AdapterReport.VideoEvent>.enumeration("event")

  static func change(_ event: AdapterReport.VideoEvent) -> AdChange {
    switch event {
    case .didPlay: .adapterEvent(.videoDidPlay)
    case .didPause: .adapterEvent(.videoDidPause)
    case .didEnd: .adapterEvent(.videoDidEnd)
    case .didMute: .adapterEvent(.videoDidMute)
    case .didUnmute: .adapterEvent(.videoDidUnmute)
    }
  }
}

/// `adapter.reportFullScreen {"adId", "event"}`: forwarded to the app as an `adEvent`.
enum AdapterReportFullScreen: AdapterEventReport {
  static let name = "adapter.reportFullScreen"
  static let summary = "An adapter reports a full-screen event."
  static let eventField = Field<AdapterReport.ScreenEvent>.enumeration("event")

  static func change(_ event: AdapterReport.ScreenEvent) -> AdChange {
    switch event {
    case .willPresentScreen: .adapterEvent(.willPresentScreen)
    case .willDismissScreen: .adapterEvent(.willDismissScreen)
    case .didDismissScreen: .adapterEvent(.didDismissScreen)
    }
  }
}
