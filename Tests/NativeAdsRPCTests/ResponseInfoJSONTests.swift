import JSONRPC
import NativeAds
import Testing

@testable import NativeAdsRPC

/// Response info as replies write it: the loaded entry written once and copied where the array
/// repeats it, the names of the last source kept encoded; the same text as writing every
/// member out.
@Suite struct ResponseInfoJSONTests {
  private static let error = AdNetworkError(
    code: 3, domain: "com.example.ads", message: "No \"fill\"\nhere")

  private static func entry(_ name: String, latency: Double, error: AdNetworkError? = nil)
    -> AdNetworkInfo
  {
    AdNetworkInfo(
      adNetworkClassName: "Class." + name, adSourceName: name + " source é", latency: latency,
      error: error)
  }

  /// Every member written out by hand: what any writing must come to.
  private static func expected(_ info: ResponseInfo) -> JSONValue {
    func entry(_ e: AdNetworkInfo?) -> JSONValue {
      guard let e else { return .null }
      var error = JSONValue.null
      if let failure = e.error {
        error = .object([
          ("code", .int(failure.code)), ("domain", .string(failure.domain)),
          ("message", .string(failure.message)),
        ])
      }
      var w = JSONWriter()
      w.microunits(e.latency)
      return .object([
        ("adNetworkClassName", .string(e.adNetworkClassName)),
        ("adSourceName", .string(e.adSourceName)),
        ("latency", .number(String(decoding: w.bytes, as: UTF8.self))), ("error", error),
      ])
    }
    var members: [(String, JSONValue)] = [
      ("responseIdentifier", .string(info.responseIdentifier)),
      ("loadedAdNetworkResponseInfo", entry(info.loadedAdNetworkResponseInfo)),
      ("adNetworkInfoArray", .array(info.adNetworkInfoArray.map(entry))),
    ]
    if let test = info.isTestRequest { members.append(("isTestRequest", .bool(test))) }
    return .object(members)
  }

  private static func text(_ info: ResponseInfo, names: SourceNamesJSON?) -> String {
    var w = JSONWriter()
    AdJSON.write(info, names: names, into: &w)
    return String(decoding: w.bytes, as: UTF8.self)
  }

  private static let cases: [ResponseInfo] = {
    let a = entry("A", latency: 0.012_5, error: error)
    let b = entry("B", latency: 0.25)
    let c = entry("C", latency: 0)
    var test = ResponseInfo(
      responseIdentifier: "id-4", loadedAdNetworkResponseInfo: b, adNetworkInfoArray: [a, b])
    test.isTestRequest = false
    return [
      // filled by the last source tried (the loaded entry is copied)
      ResponseInfo(
        responseIdentifier: "id-1", loadedAdNetworkResponseInfo: b, adNetworkInfoArray: [a, b]),
      // filled, the last entry differing from the loaded one (written in full)
      ResponseInfo(
        responseIdentifier: "id-2", loadedAdNetworkResponseInfo: b,
        adNetworkInfoArray: [b, entry("B", latency: 0.5)]),
      // no fill
      ResponseInfo(
        responseIdentifier: "id-3", loadedAdNetworkResponseInfo: nil, adNetworkInfoArray: [a, c]),
      test,
      // nothing tried
      ResponseInfo(
        responseIdentifier: "id-5", loadedAdNetworkResponseInfo: nil, adNetworkInfoArray: []),
      // filled at the first source (no array kept), with a drawn identifier (copied as it is)
      drawn,
      // an identifier that needs escapes
      ResponseInfo(
        responseIdentifier: "id \"6\"\n\\é", loadedAdNetworkResponseInfo: b,
        adNetworkInfoArray: [b]),
      // the loaded entry tried before another source (written in full at its place)
      ResponseInfo(
        responseIdentifier: "id-7", loadedAdNetworkResponseInfo: b, adNetworkInfoArray: [b, a]),
    ]
  }()

  private static let drawn: ResponseInfo = {
    let b = entry("B", latency: 0.25)
    var info = ResponseInfo(
      responseIdentifier: "", loadedAdNetworkResponseInfo: b, adNetworkInfoArray: [b])
    var random = SplitMix64(seed: 11)
    info.identifier = ResponseIdentifier(drawingFrom: &random)
    return info
  }()

  @Test func everyResponseInfoIsWrittenAsItsMembersSay() throws {
    let names = SourceNamesJSON()
    let parser = JSONParser()
    // Twice over, the names kept changing from source to source and case to case.
    for info in Self.cases + Self.cases {
      let kept = Self.text(info, names: names)
      #expect(kept == Self.text(info, names: nil))
      #expect(try parser.parseValue(kept) == Self.expected(info))
    }
  }
}
