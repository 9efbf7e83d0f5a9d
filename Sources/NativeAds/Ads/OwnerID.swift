/// Who loaded an ad: an opaque number the caller chooses (the RPC layer uses its connection
/// number). The domain only compares owners; it does not know what a connection is.
public typealias OwnerID = UInt64
