import Foundation
import JSONRPC
import NativeAds
import Testing

@testable import NativeAdsRPC

/// The files in `schemas/` are generated from the code (`make schemas`); these tests fail when
/// they are stale, and when the OpenRPC document and the registered methods disagree.
@Suite struct SchemaFilesTests {
  static let schemasDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("schemas")

  @Test func everyGeneratedSchemaFileIsCheckedInUpToDate() throws {
    for file in SchemaFiles.all(inventory: StoreLoader.builtInInventory()) {
      let url = Self.schemasDirectory.appendingPathComponent(file.name)
      let onDisk = try? String(contentsOf: url, encoding: .utf8)
      #expect(onDisk == file.text, "schemas/\(file.name) is stale: run `make schemas`")
    }
  }

  @Test func theOpenRPCDocumentListsExactlyTheMethodsTheServerAnswers() throws {
    let harness = ServiceHarness()
    guard case .array(let methods)? = OpenRPCDocument.document(examples: [:])["methods"] else {
      Issue.record("the document has no methods")
      return
    }
    let documented = methods.compactMap { method -> String? in
      if case .string(let name)? = method["name"] { return name }
      return nil
    }
    #expect(documented.sorted() == harness.service.dispatcher.methodNames.sorted())
  }

  @Test func rpcDiscoverAnswersTheDocumentWithItsRecordedExamples() throws {
    let harness = ServiceHarness()
    let client = harness.connect()
    let result = try client.result("rpc.discover")
    #expect(result == OpenRPCDocument.document(examples: OpenRPCExamples.byMethod))
    guard case .array(let methods)? = result["methods"] else { return }
    let withExamples = methods.filter { $0["examples"] != nil }
    #expect(withExamples.count >= 15)
  }

  @Test func formatsSchemaDescribesNativeAdsAndEveryCustomFormat() throws {
    let harness = ServiceHarness()
    let client = harness.connect()
    #expect(try client.result("formats.schema", #"{"formatID":"native"}"#) == SchemaFiles.nativeAd)
    let custom = try client.result("formats.schema", #"{"formatID":"10063170"}"#)
    guard case .object(let properties)? = custom["properties"]?["assets"]?["properties"] else {
      Issue.record("no asset properties")
      return
    }
    #expect(properties.map(\.0) == ["Headline", "MainImage", "Caption"])
    let error = try client.error("formats.schema", #"{"formatID":"nope"}"#)
    #expect(error["data"]?["field"] == .string("formatID"))
  }
}
