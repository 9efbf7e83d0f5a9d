import Testing

@testable import NativeAds

/// A load's response identifier, drawn inline, and response info that keeps the loaded entry
/// once: the same text, equality and arrays as the plain values they stand for.
@Suite struct ResponseIdentifierTests {
  @Test(arguments: [0, 1, 7, 0xFFFF_FFFF_FFFF_FFFF] as [UInt64])
  func aDrawnIdentifierIsTheBase64URLIdentifierOfTheSameDraws(_ seed: UInt64) {
    var inline = SplitMix64(seed: seed)
    var plain = inline
    let drawn = ResponseIdentifier(drawingFrom: &inline)
    let text = plain.base64URLIdentifier(length: ResponseIdentifier.drawnLength)
    #expect(drawn.description == text)
    #expect(inline.state == plain.state)  // as many draws
    #expect(drawn.needsNoEscape)
    #expect(drawn.withUTF8 { Array($0) } == Array(text.utf8))
    // Equal to the same text kept as a string, and to nothing else.
    #expect(drawn == ResponseIdentifier(text))
    #expect(ResponseIdentifier(text) == drawn)
    #expect(drawn != ResponseIdentifier(String(text.dropLast())))
    #expect(drawn != ResponseIdentifier(drawingFrom: &inline))
  }

  @Test func anIdentifierOfAnyTextIsKeptAsItIs() {
    let text = "id \"quoted\"\n é"
    let identifier = ResponseIdentifier(text)
    #expect(identifier.description == text)
    #expect(!identifier.needsNoEscape)
    #expect(identifier.withUTF8 { Array($0) } == Array(text.utf8))
    #expect(identifier == ResponseIdentifier(text))
    #expect(identifier != ResponseIdentifier("id"))
  }

  private static func entry(_ name: String, latency: Double = 0.1) -> AdNetworkInfo {
    AdNetworkInfo(
      adNetworkClassName: "Class." + name, adSourceName: name, latency: latency, error: nil)
  }

  @Test func responseInfoGivesBackTheArrayItWasMadeWithWhateverItsShape() {
    let a = Self.entry("A")
    let b = Self.entry("B")
    let shapes: [(loaded: AdNetworkInfo?, tried: [AdNetworkInfo], before: [AdNetworkInfo]?)] = [
      (b, [b], []),  // filled at the first source
      (b, [a, b], [a]),  // filled at the second
      (b, [b, a], nil),  // the loaded entry is not the last tried
      (b, [a], nil),  // not in the array at all
      (nil, [a, b], nil),  // no fill
      (nil, [], nil),  // nothing tried
    ]
    for shape in shapes {
      let info = ResponseInfo(
        responseIdentifier: "id", loadedAdNetworkResponseInfo: shape.loaded,
        adNetworkInfoArray: shape.tried)
      #expect(info.adNetworkInfoArray == shape.tried)
      #expect(info.loadedAdNetworkResponseInfo == shape.loaded)
      #expect(info.loadedIsLastTried == (shape.before != nil))
      #expect(info.triedBeforeLoaded == (shape.before ?? shape.tried))
      #expect(info.responseIdentifier == "id")
    }
  }

  @Test func theInitOfALoadThatFilledMakesTheSameResponseInfoAsThePublicOne() {
    let a = Self.entry("A")
    let b = Self.entry("B")
    let filled = ResponseInfo(
      identifier: ResponseIdentifier("id"), isTestRequest: true, loaded: b, after: [a])
    var plain = ResponseInfo(
      responseIdentifier: "id", loadedAdNetworkResponseInfo: b, adNetworkInfoArray: [a, b])
    plain.isTestRequest = true
    #expect(filled == plain)
    #expect(filled.adNetworkInfoArray == [a, b])
    #expect(filled.triedBeforeLoaded == [a] && filled.loadedIsLastTried)
  }

  @Test func settingAMemberKeepsTheOthers() {
    let a = Self.entry("A")
    let b = Self.entry("B")
    var info = ResponseInfo(
      identifier: ResponseIdentifier("id"), isTestRequest: false, loaded: b, after: [a])
    info.responseIdentifier = "other"
    #expect(info.identifier == ResponseIdentifier("other"))
    #expect(info.adNetworkInfoArray == [a, b] && info.loadedIsLastTried)
    #expect(info.isTestRequest == false)
    info.loadedAdNetworkResponseInfo = a
    #expect(info.adNetworkInfoArray == [a, b] && !info.loadedIsLastTried)
    info.adNetworkInfoArray = [b, a]
    #expect(info.loadedAdNetworkResponseInfo == a && info.loadedIsLastTried)
    #expect(info.triedBeforeLoaded == [b])
    info.isTestRequest = nil
    #expect(info.adNetworkInfoArray == [b, a] && info.responseIdentifier == "other")
  }
}
