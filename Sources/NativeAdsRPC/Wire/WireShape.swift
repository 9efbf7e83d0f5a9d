import JSONRPC

/// The description of one object on the wire (a store format, creative, ad unit, waterfall
/// source, a method's params or result): its members, which are required, and whether others
/// are refused. Its JSON Schema is generated from it, decoding checks unknown members against
/// it, and its ``Field``s decode and name the members.
final class WireShape: Sendable {
  /// The component name (`#/components/schemas/<name>`); nil for a shape written inline.
  let name: String?
  let summary: String?
  let members: [WireMember]
  /// Whether members not described are refused (store shapes) or ignored (params).
  let closed: Bool
  /// More schema keywords, for rules between members (`allOf` of a creative's kinds).
  let keywords: [(String, JSONValue)]
  private let names: MemberNames

  init(
    _ name: String?, summary: String? = nil, closed: Bool = true,
    keywords: [(String, JSONValue)] = [], _ members: [WireMember]
  ) {
    self.name = name
    self.summary = summary
    self.members = members
    self.closed = closed
    self.keywords = keywords
    self.names = MemberNames(members.map(\.name))
  }

  /// The JSON Schema of the object.
  var schema: JSONValue {
    let object = Schema.object(
      members.map { ($0.name, $0.schema) }, required: members.filter(\.required).map(\.name),
      closed: closed, description: summary)
    guard !keywords.isEmpty, case .object(let base) = object else { return object }
    return .object(base + keywords)
  }

  /// Refuses members that are not described, when the shape is closed (a typo in a store file
  /// is an error, not a silently ignored field).
  func check(_ object: Params) throws(InvalidField) {
    guard closed else { return }
    try object.rejectUnknownMembers(allowed: names)
  }
}
