import JSONRPC
import NativeAds

/// `loadAd`: the ad loader. Params by name (contract section 4); result
/// `{"ads": [Ad...], "responseInfo": ResponseInfo}`; failures are `1000 + GADErrorCode`.
enum LoadAd: ServiceMethod {
  static let name = "loadAd"

  /// `options`: the loader options (`GADNativeAdLoaderOptions` and friends).
  enum Options {
    static let disableImageLoading = Field.optionalBool("disableImageLoading")
    static let shouldRequestMultipleImages = Field.optionalBool("shouldRequestMultipleImages")
    static let mediaAspectRatio = Field.optionalEnumeration(
      "mediaAspectRatio", MediaAspectRatio.self)
    static let adChoicesPosition = Field.optionalEnumeration(
      "adChoicesPosition", AdChoicesPosition.self)
    static let startMuted = Field.optionalBool("startMuted")
    static let customControlsRequested = Field.optionalBool("customControlsRequested")
    static let clickToExpandRequested = Field.optionalBool("clickToExpandRequested")
    static let numberOfAds = Field.optionalInt("numberOfAds")
    static let shape = WireShape(
      "LoaderOptions", closed: false,
      [
        disableImageLoading.member, shouldRequestMultipleImages.member, mediaAspectRatio.member,
        adChoicesPosition.member, startMuted.member, customControlsRequested.member,
        clickToExpandRequested.member, numberOfAds.member,
      ])
  }

  /// `request`: the request's targeting (`GADRequest`).
  enum Targeting {
    static let isTestRequest = Field.optionalBool("isTestRequest")
    static let keywords = Field.stringArray("keywords")
    static let contentURL = Field.optionalString("contentURL")
    static let customTargeting = Field.object(
      "customTargeting", .map(.oneOf([.string(), .array(.string())])))
    static let seed = Field.optionalInt("seed", minimum: 0)
    static let shape = WireShape(
      "RequestTargeting", closed: false,
      [
        isTestRequest.member, keywords.member, contentURL.member, customTargeting.member,
        seed.member,
      ])
  }

  static let adUnitID = Field.string("adUnitID")
  static let adTypes = Field.enumerationArray("adTypes", AdKind.self)
  static let customNativeAdFormatIDs = Field.stringArray("customNativeAdFormatIDs")
  static let options = Field.object("options", Options.shape)
  static let request = Field.object("request", Targeting.shape)
  static let adResponseString = Field.optionalString(
    "adResponseString",
    summary:
      "An OpenRTB Native 1.2 response (bare or {\"native\": ...}) or an OpenRTB 2.x bid response"
      + " whose bids carry one in adm, as the SDK's loadWithAdResponseString (contract section"
      + " 10, docs/openrtb.md). adUnitID names what it is for and need not be in the store.")
  /// Read raw: an object, or a string holding one.
  static let nativeRequest = Field.object(
    "nativeRequest", .oneOf([.string(), .component("OpenRTBNativeRequest")]),
    summary:
      "With adResponseString: the Native 1.2 request the response answers, whose assets type"
      + " the response's untyped ones by id.")

  /// A load's params, decoded.
  struct Request {
    var ad: AdRequest
    /// nil for a load from the store (a reference: nothing to copy then).
    var responseString: ResponseString?
  }

  /// `adResponseString`.
  final class ResponseString {
    let text: String
    init(text: String) { self.text = text }
  }

  static var signature: MethodSignature {
    MethodSignature(
      summary: "Loads 1 to numberOfAds native or custom native ads.",
      params: [
        adUnitID.member, adTypes.member, customNativeAdFormatIDs.member, options.member,
        request.member, adResponseString.member, nativeRequest.member,
      ], result: .component("LoadAdResult"),
      errors: [
        .invalidParams, .invalidRequest, .noFill, .networkError, .timeout,
        .mediationAdapterError, .receivedInvalidResponse,
      ])
  }

  static func decode(_ params: Params) throws(RPCError) -> Request {
    try decode(params, inventory: nil)
  }

  static func decode(_ params: Params, service: NativeAdsService) throws(RPCError) -> Request {
    try decode(params, inventory: service.manager.inventory)
  }

  /// The fast layer (``DirectHandler``): `{"adUnitID":"<plain>"}` naming a unit loaded a
  /// moment ago (``Inventory/recentUnit(_:)``) that has no waterfall, in a process that keeps
  /// its ads (no fleet), is loaded at once from the params' bytes, by the same
  /// ``AdManager/startLoad(_:response:owner:)`` and the same ``write(_:service:into:)`` as
  /// ``handle(_:context:result:)``, and a load that fails throws the same error. Anything else
  /// is declined before anything is done (other params, another spelling, a unit not loaded
  /// lately, a waterfall, which may wait on adapters), and the general path loads it.
  static func directHandler(for service: NativeAdsService) -> DirectHandler? {
    // Held unretained and used as guaranteed references, as in StringForKey's fast layer.
    let unowned = Unmanaged.passUnretained(service)
    let unitName = adUnitID.name
    return { params, session, w throws(RPCError) in
      let outcome: Result<Bool, RPCError> = unowned._withUnsafeGuaranteedRef { service in
        let manager = service.manager
        guard service.replica == nil, manager.adsAreLocal, let bytes = params.string(unitName),
          let unit = manager.inventory.recentUnit(bytes), !unit.hasWaterfall
        else { return .success(false) }
        let owner = session.id
        let start = manager.startLoad(AdRequest(adUnitID: unit.id), owner: owner)
        // A unit without a waterfall, with the ads kept in this process, answers at once.
        guard case .answered(let result, _) = consume start else {
          return .failure(
            .internalError("a load of a unit without a waterfall did not answer at once"))
        }
        if let error = answer(result, adUnitID: unit.id, owner: owner, service, into: &w) {
          return .failure(error)
        }
        return .success(true)
      }
      return try outcome.get()
    }
  }

  /// ``decode(_:)``, taking the unit's ID from `inventory` when it names one of the units
  /// loaded a moment ago (``Inventory/recentUnitID(_:)``: the same string, not a new one).
  static func decode(_ params: Params, inventory: Inventory?) throws(RPCError) -> Request {
    try decoding { () throws(InvalidField) in
      let ad = try decodeRequest(params, inventory: inventory)
      // (A nativeRequest without a response string is an extra param: ignored.)
      guard !Self.namesOnlyTheUnit(params), let text = try params(adResponseString) else {
        return Request(ad: ad)
      }
      // (nativeRequest is read by `handle`, which knows the service's limits.)
      return Request(ad: ad, responseString: ResponseString(text: text))
    }
  }

  /// Whether the params are `{"adUnitID": ...}` alone (the common load; `adUnitID` has been
  /// read): every other param is optional, so none is there to look up.
  @inline(__always)
  private static func namesOnlyTheUnit(_ params: Params) -> Bool { params.object?.count == 1 }

  private static func decodeRequest(_ params: Params, inventory: Inventory?)
    throws(InvalidField) -> AdRequest
  {
    // A plain string naming a recent unit is that unit's ID; anything else is read by the
    // field's rules.
    let unit: String
    if let bytes = params.raw(adUnitID.name)?.unescapedStringBytes,
      let known = inventory?.recentUnitID(bytes)
    {
      unit = known
    } else {
      unit = try params(adUnitID)
    }
    if namesOnlyTheUnit(params) { return AdRequest(adUnitID: unit) }
    var request = AdRequest(adUnitID: unit)
    if let kinds = try params(adTypes) { request.adTypes = kinds }
    request.customNativeAdFormatIDs = try params(customNativeAdFormatIDs) ?? []
    if let o = try params(options) {
      typealias O = Options
      var options = LoaderOptions()
      if let v = try o(O.disableImageLoading) { options.disableImageLoading = v }
      if let v = try o(O.shouldRequestMultipleImages) { options.shouldRequestMultipleImages = v }
      if let v = try o(O.mediaAspectRatio) { options.mediaAspectRatio = v }
      if let v = try o(O.adChoicesPosition) { options.adChoicesPosition = v }
      if let v = try o(O.startMuted) { options.startMuted = v }
      if let v = try o(O.customControlsRequested) { options.customControlsRequested = v }
      if let v = try o(O.clickToExpandRequested) { options.clickToExpandRequested = v }
      if let v = try o(O.numberOfAds) { options.numberOfAds = v }
      request.options = options
    }
    if let r = try params(self.request) {
      typealias T = Targeting
      request.isTestRequest = try r(T.isTestRequest)
      request.keywords = try r(T.keywords) ?? []
      request.contentURL = try r(T.contentURL)
      if let seed = try r(T.seed) { request.seed = UInt64(seed) }
      if let targeting = try r(T.customTargeting), let object = targeting.object {
        for (key, value) in object.members {
          if let s = value.stringValue {
            request.customTargeting[key] = [s]
          } else if value.kind == .array, value.elements.allSatisfy({ $0.kind == .string }) {
            request.customTargeting[key] = value.elements.map { $0.stringValue ?? "" }
          } else {
            throw InvalidField(
              targeting.path(named: key), "must be a string or an array of strings")
          }
        }
      }
    }
    return request
  }

  static func handle(_ params: Request, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    let request = params.ad
    // An ad response string is read here: what cannot be mapped fails the load (1013, with
    // response info), not the params.
    var response: AdResponse?
    if let text = params.responseString?.text {
      let limit = context.service.maxResponseAssets
      var typing: NativeRequest?
      let call = context.call.params
      if let raw = call.raw(nativeRequest.name) {
        typing = try decoding { () throws(InvalidField) in
          try NativeRequest.read(raw, place: call.path(nativeRequest.name), maximumAssets: limit)
        }
      }
      response = OpenRTBDecoder.adResponse(
        text, nativeRequest: typing, maximumAssets: limit,
        maximumTrackers: context.service.maxAdTrackers,
        maximumPixels: context.service.maxResponsePixels)
    }
    // Units without a waterfall answer at once; a waterfall may wait on adapters and timers,
    // and then the reply is deferred (the loop keeps serving everyone meanwhile) and the
    // client may cancel it (`$/cancelRequest`: the load stops, its adapter is told).
    let service = context.service
    if let replica = service.replica {
      return loadAfterCatchUp(request, response, replica, context)
    }
    let owner = context.session.id
    let start = service.manager.startLoad(request, response: response, owner: owner)
    // Consumed: the result moves out of it, not copied and then destroyed with it.
    switch consume start {
    case .answered(let result, _):
      if let error = answer(result, adUnitID: request.adUnitID, owner: owner, service, into: &w) {
        throw error
      }
    case .pending(let pending):
      let reply = context.call.deferReply()
      let manager = service.manager
      let ticket = pending.ticket
      reply.onCancel = { manager.cancelLoad(ticket) }
      reply.cancelsWhenInputEnds = { manager.isAskingSources(ticket) }
      pending.onAnswer = answering(reply, request.adUnitID, owner: owner, service)
    }
  }

  /// A load answered at once, by the general path or the fast layer: the inspector's watchers
  /// told, then the result written, or the error to throw returned.
  @inline(__always)
  private static func answer(
    _ result: consuming LoadResult, adUnitID: String, owner: UInt64,
    _ service: NativeAdsService, into w: inout JSONWriter
  ) -> RPCError? {
    if !service.inspectors.isEmpty { service.inspect(result, adUnitID: adUnitID, owner: owner) }
    switch consume result {
    case .success(let loaded):
      write(loaded, service: service, into: &w)
      return nil
    case .failure(let error): return error.rpcError
    }
  }

  /// In a fleet: the load waits until this process has caught up with the fleet's store
  /// changes (one small read), so that no load is served from a store older than the last
  /// change acknowledged. The client may cancel it meanwhile, and after, as any load.
  private static func loadAfterCatchUp(
    _ request: AdRequest, _ response: AdResponse?, _ replica: StoreReplica,
    _ context: MethodContext
  ) {
    final class Started {
      var ticket: LoadTicket?
      var cancelled = false
    }
    let service = context.service
    let manager = service.manager
    let owner = context.session.id
    let reply = context.call.deferReply()
    let started = Started()
    reply.onCancel = {
      started.cancelled = true
      if let ticket = started.ticket { manager.cancelLoad(ticket) }
    }
    reply.cancelsWhenInputEnds = { started.ticket.map(manager.isAskingSources) ?? false }
    replica.catchUp { caught in
      guard !started.cancelled else { return }
      if case .failure(let unavailable) = caught { return reply.reject(unavailable.rpcError()) }
      started.ticket = manager.load(
        request, response: response, owner: owner,
        completion: answering(reply, request.adUnitID, owner: owner, service))
    }
  }

  typealias LoadCompletion = (LoadResult) -> Void

  /// The completion of a load answered later: the deferred reply resolved or rejected, then
  /// the inspector's watchers told (``inspected(_:_:owner:_:)``).
  private static func answering(
    _ reply: DeferredReply, _ adUnitID: String, owner: UInt64, _ service: NativeAdsService
  ) -> LoadCompletion {
    let done: LoadCompletion = { result in
      switch result {
      case .success(let loaded): reply.resolve { w in write(loaded, service: service, into: &w) }
      case .failure(let error): reply.reject(error.rpcError)
      }
    }
    return service.inspectors.isEmpty ? done : inspected(done, adUnitID, owner: owner, service)
  }

  /// `completion`, and then the inspector's watchers told of the load's end
  /// (``InspectorWatch``; used only while there are some).
  private static func inspected(
    _ completion: @escaping LoadCompletion, _ adUnitID: String, owner: UInt64,
    _ service: NativeAdsService
  ) -> LoadCompletion {
    { result in
      completion(result)
      service.inspect(result, adUnitID: adUnitID, owner: owner)
    }
  }

  /// `{"ads": [Ad...], "responseInfo": ResponseInfo}`: the response info is written once and
  /// copied for each other place that holds it.
  static func write(
    _ loaded: LoadedAds, service: NativeAdsService,
    into w: inout JSONWriter
  ) {
    var responseInfo = JSONWriter.WrittenOnce()
    w.verbatim(#"{"ads":["#)
    for ad in loaded.ads {
      w.element()
      w.verbatim("{")
      writeMembers(of: ad, responseInfo: &responseInfo, service: service, into: &w)
      w.verbatim("}")
    }
    w.verbatim(#"],"responseInfo":"#)
    responseInfo.write(into: &w) { writeResponseInfo(loaded.responseInfo, service, into: &$0) }
    w.verbatim("}")
  }

  /// An Ad's members (contract section 4), in the object `w` is writing. `responseInfo` is
  /// the ad's (its load's), written here or copied from where it was written before.
  @inline(__always)
  static func writeMembers(
    of ad: NativeAd, responseInfo: inout JSONWriter.WrittenOnce, service: NativeAdsService,
    into w: inout JSONWriter
  ) {
    w.key("adId")
    w.string(ad.id)
    // `"kind"` and the creative's members, encoded once per creative and options.
    w.raw(service.creativeJSON.fragment(for: ad, inventory: service.manager.inventory))
    w.key("responseInfo")
    responseInfo.write(into: &w) { writeResponseInfo(ad.responseInfo, service, into: &$0) }
    w.key("expiresAt")
    service.writeTimestamp(ad.expiresAt, into: &w)
  }

  private static func writeResponseInfo(
    _ info: ResponseInfo, _ service: NativeAdsService, into w: inout JSONWriter
  ) {
    AdJSON.write(info, names: service.sourceNamesJSON, into: &w)
  }
}
