import Testing

@testable import NativeAds

/// `AdRequest` keeps the fields a common request leaves at their defaults behind one
/// reference: it must still behave as a plain value with nine stored fields.
@Suite struct AdRequestTests {
  @Test func aRequestForAUnitAloneHasEveryDefault() {
    for request in [AdRequest(adUnitID: "u"), AdRequest(adUnitID: "u", seed: nil)] {
      #expect(request.adUnitID == "u")
      #expect(request.adTypes == [.native])
      #expect(request.customNativeAdFormatIDs.isEmpty)
      #expect(request.keywords.isEmpty)
      #expect(request.contentURL == nil)
      #expect(request.customTargeting.isEmpty)
      #expect(request.isTestRequest == nil)
      #expect(request.seed == nil)
      #expect(request.options.numberOfAds == LoaderOptions().numberOfAds)
    }
  }

  @Test func everyFieldGivenAtCreationIsKept() {
    let request = AdRequest(
      adUnitID: "u", adTypes: [.native, .customNative], customNativeAdFormatIDs: ["f"],
      isTestRequest: true, keywords: ["k"], contentURL: "https://example.com/a",
      customTargeting: ["t": ["1", "2"]], seed: 9)
    #expect(request.adTypes == [.native, .customNative])
    #expect(request.customNativeAdFormatIDs == ["f"])
    #expect(request.keywords == ["k"])
    #expect(request.contentURL == "https://example.com/a")
    #expect(request.customTargeting == ["t": ["1", "2"]])
    #expect(request.isTestRequest == true)
    #expect(request.seed == 9)
  }

  @Test func eachFieldSetAloneChangesThatFieldOnly() {
    var request = AdRequest(adUnitID: "u")
    request.keywords = ["a"]
    #expect(request.keywords == ["a"] && request.adTypes == [.native])
    request.contentURL = "https://example.com"
    request.customTargeting["k"] = ["v"]
    request.customTargeting["l"] = ["w"]
    request.adTypes.append(.customNative)
    request.customNativeAdFormatIDs = ["f"]
    #expect(request.keywords == ["a"])
    #expect(request.contentURL == "https://example.com")
    #expect(request.customTargeting == ["k": ["v"], "l": ["w"]])
    #expect(request.adTypes == [.native, .customNative])
    #expect(request.customNativeAdFormatIDs == ["f"])
    // Back to the defaults, one by one.
    request.keywords = []
    request.contentURL = nil
    request.customTargeting = [:]
    request.adTypes = [.native]
    request.customNativeAdFormatIDs = []
    #expect(request.keywords.isEmpty && request.contentURL == nil)
    #expect(request.customTargeting.isEmpty && request.customNativeAdFormatIDs.isEmpty)
    #expect(request.adTypes == [.native])
  }

  @Test func aCopyIsIndependentOfTheOriginal() {
    var original = AdRequest(adUnitID: "u", keywords: ["a"], customTargeting: ["k": ["v"]])
    var copy = original
    copy.keywords.append("b")
    copy.customTargeting["k"] = nil
    copy.adUnitID = "w"
    #expect(original.keywords == ["a"] && original.customTargeting == ["k": ["v"]])
    #expect(original.adUnitID == "u")
    #expect(copy.keywords == ["a", "b"] && copy.customTargeting.isEmpty)
    original.contentURL = "https://example.com"
    #expect(copy.contentURL == nil)
  }
}
