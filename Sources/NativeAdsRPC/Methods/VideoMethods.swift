import JSONRPC
import NativeAds

/// `videoControl {"adId", "action"}` → `{"applied", "reason"?, "videoController",
/// "currentTime", "duration"}`. Changes happen only with custom controls enabled.
enum VideoControl: ServiceMethod {
  static let name = "videoControl"

  struct Request {
    var adId: String
    var action: VideoAction
  }

  static func decode(_ params: Params) throws(RPCError) -> Request {
    guard let action = try params.optionalEnum("action", VideoAction.self) else {
      throw .invalidParams(field: "action", "is required")
    }
    return Request(adId: try params.string("adId"), action: action)
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

  static func decode(_ params: Params) throws(RPCError) -> AdIDRequest { try AdIDRequest(params) }

  static func handle(_ request: AdIDRequest, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    let manager = context.service.manager
    let state = try AdObjectError.reported(by: name) { () throws(AdObjectError) in
      try manager.videoState(adId: request.adId)
    }
    guard let state else {
      w.null()
      return
    }
    w.beginObject()
    AdJSON.writeVideoMembers(state, into: &w)
    w.endObject()
  }
}
