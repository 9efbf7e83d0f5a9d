import ByteKeys

/// A method's fast layer: the answer to a request in the canonical spelling
/// (``CanonicalEnvelope``) read straight from its params' bytes, or a refusal to answer.
///
/// For the few methods whose common request is a lookup and a copy of pre-encoded bytes
/// (`stringForKey`: an ad and a key), a lookup and a change made at once (`releaseAd` of an
/// ad this process holds: it declines before changing anything, unless the change succeeded),
/// or a call of the domain that answers at once (`loadAd` of a unit without a waterfall).
/// The handler writes the result value and returns true, or throws the error the general
/// path's handler would throw for that request, or writes nothing and returns false
/// ("declines"), and the request then takes the general path (parse, decode, the method's
/// handler), which answers it or words its error. A direct handler only ever answers what the
/// general path would answer the same way, byte for byte: it calls the same functions of the
/// domain, and declines, before anything changes, whatever is not the plain case (another
/// params shape, an unknown ad, a load that could wait). It never defers, and is never called
/// for a notification, in a batch or after `shutdown`. `session` is the connection the
/// request came in on.
public typealias DirectHandler = (
  _ params: FlatParams, _ session: RPCSession, _ result: inout JSONWriter
) throws(RPCError) -> Bool

/// The params of a canonical request, as bytes: `{` up to the envelope's closing `}`
/// (whitespace after the object included). Valid while the message is.
///
/// Readers match one exact spelling and decline anything else; they prove what they accept
/// is JSON, so a direct handler can trust what it gets.
public struct FlatParams {
  @usableFromInline let base: UnsafePointer<UInt8>
  @usableFromInline let count: Int

  init(_ bytes: UnsafeRawBufferPointer) {
    guard let start = bytes.baseAddress else {
      base = ("" as StaticString).utf8Start
      count = 0
      return
    }
    base = start.assumingMemoryBound(to: UInt8.self)
    var n = bytes.count
    while n > 0 && JSONBytes.isWhitespace(base[n &- 1]) { n &-= 1 }
    count = n
  }

  /// The values of members `first` and `second` when the params are exactly those two
  /// members, in either order, and both values plain strings (printable ASCII but `"` and
  /// `\`: no escape to decode), with no whitespace: `{"adId":"ad-1","key":"headline"}`.
  /// Nil for anything else (a third member, a repeated one, a null, a number, an escape,
  /// whitespace), which the general path reads.
  @inlinable @inline(__always)
  public func strings(_ first: StaticString, _ second: StaticString)
    -> (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>)?
  {
    guard count >= 2, base[0] == 0x7B else { return nil }  // {
    if let a = member(first, at: 1, then: 0x2C), let b = member(second, at: a.next, then: 0x7D),
      b.next == count
    {
      return (a.value, b.value)
    }
    if let b = member(second, at: 1, then: 0x2C), let a = member(first, at: b.next, then: 0x7D),
      a.next == count
    {
      return (a.value, b.value)
    }
    return nil
  }

  /// The value of member `name` when the params are exactly that one member and its value a
  /// plain string (as ``strings(_:_:)`` reads them): `{"adId":"ad-1"}`. Nil for anything else.
  @inlinable @inline(__always)
  public func string(_ name: StaticString) -> UnsafeBufferPointer<UInt8>? {
    guard count >= 2, base[0] == 0x7B, let a = member(name, at: 1, then: 0x7D), a.next == count
    else { return nil }
    return a.value
  }

  /// `"<name>":"<plain value>"` at `i`, followed by the byte `then`: the value, and where the
  /// byte after `then` is.
  @inlinable @inline(__always)
  func member(_ name: StaticString, at i: Int, then: UInt8)
    -> (value: UnsafeBufferPointer<UInt8>, next: Int)?
  {
    let p = base
    let n = count
    let k = name.utf8CodeUnitCount
    // `"`, the name, `":"`, then at least the value's closing quote and `then`.
    guard n &- i >= k &+ 6, p[i] == 0x22, p[i &+ k &+ 1] == 0x22, p[i &+ k &+ 2] == 0x3A,
      p[i &+ k &+ 3] == 0x22, ByteKeys.equal(p + (i &+ 1), name.utf8Start, count: k)
    else { return nil }
    let open = i &+ k &+ 3
    let close = JSONBytes.plainStringEnd(p, n, open)
    guard close >= 0, close &+ 1 < n, p[close &+ 1] == then else { return nil }
    return (UnsafeBufferPointer(start: p + (open &+ 1), count: close &- open &- 1), close &+ 2)
  }
}
