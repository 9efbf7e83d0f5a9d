import JSONRPC

/// OpenRTB nests documents in strings (a bid's `adm`, an impression's `native.request`): this
/// parses one and reads its root object, naming `place` when it is not JSON or not an object.
enum NestedJSON {
  static func readObject<T>(
    _ text: String, place: String, _ read: (JSONRef) throws(InvalidField) -> T
  ) throws(InvalidField) -> T {
    var text = text
    let outcome: Result<T, InvalidField> = text.withUTF8 { bytes in
      do {
        return try JSONParser().parse(UnsafeRawBufferPointer(bytes)) { root in
          guard root.kind == .object else {
            return .failure(InvalidField(place, "must hold a JSON object"))
          }
          do throws(InvalidField) {
            return .success(try read(root))
          } catch {
            return .failure(error)
          }
        }
      } catch {
        return .failure(InvalidField(place, "is not JSON (\(error))"))
      }
    }
    return try outcome.get()
  }
}
