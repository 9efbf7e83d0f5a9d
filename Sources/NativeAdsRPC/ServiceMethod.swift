import JSONRPC

/// One JSON-RPC method of the service, in one file under `Methods/` (see docs/adding-a-method.md).
///
/// `decode` reads every param before anything is looked up (contract section 2); `handle`
/// does the work and writes exactly one JSON value, the result.
protocol ServiceMethod {
  associatedtype Request
  /// The wire name (`loadAd`).
  static var name: String { get }
  /// Its summary, params, result and errors, for the OpenRPC document.
  static var signature: MethodSignature { get }
  static func decode(_ params: Params) throws(RPCError) -> Request
  /// ``decode(_:)`` with the service at hand, for a decoding that can share what the service
  /// holds (`loadAd` takes its unit's ID string from the inventory). Default: ``decode(_:)``.
  static func decode(_ params: Params, service: NativeAdsService) throws(RPCError) -> Request
  static func handle(_ request: Request, context: MethodContext, result: inout JSONWriter)
    throws(RPCError)
  /// The dispatcher's handler: decode, then handle. (A requirement with a default: each
  /// method's witness is compiled for that method, so the handler calls `decode` and `handle`
  /// directly, where a generic function called through `any ServiceMethod.Type` would pass
  /// every request through the witness table and copy it as an opaque value.)
  static func handler(for service: NativeAdsService) -> MethodHandler
  /// Its fast layer, for a method whose common request is a lookup and a copy of pre-encoded
  /// bytes (``DirectHandler``); nil (the default) for the others.
  static func directHandler(for service: NativeAdsService) -> DirectHandler?
}

extension ServiceMethod {
  static func directHandler(for service: NativeAdsService) -> DirectHandler? { nil }

  static func decode(_ params: Params, service: NativeAdsService) throws(RPCError) -> Request {
    try decode(params)
  }

  static func handler(for service: NativeAdsService) -> MethodHandler {
    // Unowned and unchecked: the service owns its dispatcher's handlers and outlives every
    // call they make (a handler runs only while the service dispatches), so the reference
    // needs no counting on every request.
    { [unowned(unsafe) service] call, result throws(RPCError) in
      let request = try decode(call.params, service: service)
      try handle(request, context: MethodContext(service: service, call: call), result: &result)
    }
  }
}

/// What a method can reach: the service (ad manager, caches), the calling session, and the
/// call itself (to defer the reply).
///
/// Valid during the call only, like the call itself: it holds its references unowned (the
/// service outlives every call, the session is handling this one), so that making one costs
/// no reference counting. Code that keeps one for later (a deferred reply's completion)
/// captures `session` or `service` themselves, which makes strong references.
struct MethodContext {
  unowned(unsafe) let service: NativeAdsService
  let call: MethodCall
  /// The connection the request came in on.
  var session: RPCSession { call.session }
}

/// Every method the service answers, registered in this order.
var allMethods: [any ServiceMethod.Type] {
  [
    LoadAd.self,
    StringForKey.self,
    ImageForKey.self,
    PerformClickOnAsset.self,
    RecordImpression.self,
    SetCustomClickHandler.self,
    ReleaseAd.self,
    RegisterAdView.self,
    UnregisterAdView.self,
    ReportVisibility.self,
    ReportScreenDismissed.self,
    MuteThisAd.self,
    VideoControl.self,
    GetVideoState.self,
    GetEvents.self,
    ExportAd.self,
    InspectorWatch.self,
    StoreDefineFormat.self,
    StorePutCreative.self,
    StorePutAdUnit.self,
    StoreRemove.self,
    StoreList.self,
    FormatsSchema.self,
    RegisterAdapter.self,
    UnregisterAdapter.self,
    AdapterReportImpression.self,
    AdapterReportClick.self,
    AdapterReportVideoEvent.self,
    AdapterReportFullScreen.self,
    RPCDiscover.self,
    CancelRequest.self,
    Shutdown.self,
    Exit.self,
  ]
}
