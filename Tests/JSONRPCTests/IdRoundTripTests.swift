import JSONRPC
import Testing

@Suite struct IdRoundTripTests {
  private let server = TestServer()

  @Test(arguments: [
    "0", "1", "-1", "9223372036854775807", "18446744073709551617", "-18446744073709551617",
    "123456789012345678901234567890", "1.5", "1.50", "-0", "-0.0", "1e2", "1E+2", "2.5e-3", "1.0",
    #""""#, #""abc""#, #""123""#, #""a\"b\\c\/d\n\t\u00e9""#, #""\ud83d\ude00""#, #""😀 é""#,
    #""\u0000""#, "null",
  ])
  func idsComeBackByteForByte(id: String) {
    #expect(
      server.reply(#"{"jsonrpc":"2.0","id":\#(id),"method":"echo"}"#)
        == #"{"jsonrpc":"2.0","id":\#(id),"result":null}"#)
    #expect(
      server.reply(#"{"jsonrpc":"2.0","id":\#(id),"method":"nope"}"#)
        == #"{"jsonrpc":"2.0","id":\#(id),"error":{"code":-32601,"message":"Method not found","data":{"method":"nope"}}}"#
    )
    #expect(
      server.reply(#"{"jsonrpc":"2.0","id":\#(id),"method":"fail"}"#)
        == #"{"jsonrpc":"2.0","id":\#(id),"error":{"code":4242,"message":"boom"}}"#)
  }

  @Test func whitespaceAroundTheIdIsNotPartOfIt() {
    #expect(
      server.reply("{\"jsonrpc\":\"2.0\",\"id\" : \t 5 \r,\"method\":\"echo\"}")
        == #"{"jsonrpc":"2.0","id":5,"result":null}"#)
  }

  @Test func theLastOfRepeatedIdsIsTheOneEchoed() {
    #expect(
      server.reply(#"{"jsonrpc":"2.0","id":1,"method":"echo","id":2}"#)
        == #"{"jsonrpc":"2.0","id":2,"result":null}"#)
  }
}
