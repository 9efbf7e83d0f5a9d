import JSONRPC
import NativeAds

/// `videoControl {"adId", "action"}` → `{"applied", "reason"?, "videoController",
/// "currentTime", "duration"}`. Changes happen only with custom controls enabled.
enum VideoControl: ServiceMethod {
  static let name = "videoControl"
  static let action = Field<VideoAction>.enumeration("action")
  static var signature: MethodSignature {
    MethodSignature(
      summary: "play, pause, stop, mute or unmute (only with custom controls).",
      params: AdIDRequest.params + [action.member],
      result: .shape(
        WireShape(
          nil,
          [
            Field.boolean("applied").member,
            WireMember(
              name: "reason", type: .cases(of: VideoControlOutcome.Reason.self), required: false),
            WireMember(
              name: "videoController", type: .component("VideoController"), required: false),
            WireMember(name: "currentTime", type: .number(), required: false),
            WireMember(name: "duration", type: .number(), required: false),
          ])), errors: DocumentedError.adErrors)
  }

  struct Request {
    var adId: String
    var action: VideoAction
  }

  static func decode(_ params: Params) throws(RPCError) -> Request {
    try decoding { () throws(InvalidField) in
      let action = try params(action)
      return Request(adId: try params(AdIDRequest.adIdField), action: action)
    }
  }

  static func handle(_ request: Request, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    try context.answer(
      name, into: &w,
      {
        context.service.manager.videoControl(
          adId: request.adId, action: request.action, completion: $0)
      },
      write: write)
  }

  static func write(_ outcome: VideoControlOutcome, into w: inout JSONWriter) {
    w.beginObject()
    w.key("applied")
    w.bool(outcome.applied)
    if let reason = outcome.reason {
      w.key("reason")
      w.string(reason.rawValue)
    }
    if let state = outcome.state { AdJSON.writeVideoMembers(state, into: &w) }
    w.endObject()
  }
}

/// `getVideoState {"adId"}` → `{"videoController", "currentTime", "duration"}`, or `null`
/// for an ad without video.
enum GetVideoState: ServiceMethod {
  static let name = "getVideoState"
  static var signature: MethodSignature {
    MethodSignature(
      summary: "The video controller, time and duration, or null.", params: AdIDRequest.params,
      result: .nullable(.component("VideoState")), errors: DocumentedError.adErrors)
  }

  static func decode(_ params: Params) throws(RPCError) -> AdIDRequest { try AdIDRequest(params) }

  static func handle(_ request: AdIDRequest, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    let manager = context.service.manager
    try context.answer(
      name, into: &w, { manager.videoState(adId: request.adId, reply: $0) },
      write: { state, w in
        guard let state else { return w.null() }
        w.beginObject()
        AdJSON.writeVideoMembers(state, into: &w)
        w.endObject()
      })
  }
}
