/// Immutable objects named by a cache key's hex, in a remote store (S3 or any compatible one).
/// Every call either answers or throws within the store's timeouts.
public protocol ObjectStoreContract: Sendable {
    /// `s3://bucket/prefix`: how the store is named to the user.
    var location: String { get }
    /// The object's bytes and seal; `nil` when there is none.
    func get(hex: String) async throws(CacheStoreError) -> StoreObject?
    /// Whether the object exists, without reading it.
    func exists(hex: String) async throws(CacheStoreError) -> Bool
    /// Stores `body` as the object. With `ifAbsent`, only when there is none yet (a
    /// conditional PUT, `If-None-Match: *`), with `seal` (`CacheStoreSeal`) in its metadata.
    func put(hex: String, body: ObjectBody, ifAbsent: Bool, seal: String?) async throws(CacheStoreError) -> ObjectPutOutcome
}

/// An object read from the store.
public struct StoreObject: Sendable, Equatable {
    public var bytes: [UInt8]
    /// The seal its uploader gave it (`CacheStoreSeal`), if any.
    public var seal: String?

    public init(bytes: [UInt8], seal: String? = nil) {
        self.bytes = bytes
        self.seal = seal
    }
}

/// What an upload sends.
public enum ObjectBody: Sendable, Equatable {
    case bytes([UInt8])
    /// A whole file (a local cache entry: immutable), sent from the page cache where the
    /// connection allows (`sendfile`), never read into this process's memory.
    case file(path: String)
}

/// What a PUT did.
public enum ObjectPutOutcome: Sendable, Equatable {
    /// The object is stored.
    case stored
    /// An object was there already (412 to a conditional PUT): same key, same bytes.
    case alreadyPresent
    /// The store does not take conditional PUTs (501, or 400 naming the header): ask with
    /// `exists` first instead.
    case conditionUnsupported
}
