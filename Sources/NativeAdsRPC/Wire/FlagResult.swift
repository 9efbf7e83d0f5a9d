import JSONRPC

/// A result that is one boolean member (`{"muted": true}`, `{"dismissed": false}`): described
/// once, so the OpenRPC result and the writer name the same member.
struct FlagResult: Sendable {
  let name: StaticString
  /// The only value it takes, when it always answers the same (`{"released": true}`).
  let constant: Bool?

  init(_ name: StaticString, always constant: Bool? = nil) {
    self.name = name
    self.constant = constant
  }

  /// The result's schema.
  var type: WireType {
    let member =
      constant.map {
        WireMember(name: name.description, type: .constant(.bool($0)), required: true)
      }
      ?? Field<Bool>.boolean(name).member
    return .shape(WireShape(nil, [member]))
  }

  /// Writes `{"<name>": value}`.
  func write(_ value: Bool, into w: inout JSONWriter) {
    w.flagObject(name, constant ?? value)
  }
}
