/// Where the shared cache tier is and how it is used: an S3-compatible bucket and prefix, the
/// endpoint and region, the credentials found the way the AWS tools find them, and the tier's
/// bounds (timeouts, upload queue, drain deadline at exit).
public struct CacheStoreSettings: Sendable, Equatable {
    /// How this machine uses the store.
    public enum Mode: String, Sendable, CaseIterable {
        /// Reads on a local miss and uploads new entries.
        case readWrite = "read-write"
        /// Reads only: for consumers whose credentials cannot write.
        case readOnly = "read-only"
    }

    /// How the bucket is named in a request's URL.
    public enum Addressing: String, Sendable, CaseIterable {
        /// `https://endpoint/bucket/key`: the default for a store that is not AWS.
        case path
        /// `https://bucket.endpoint/key`: the default on AWS.
        case virtualHost = "virtual"
    }

    /// Where credentials come from.
    public enum Credentials: Sendable, Equatable, CustomStringConvertible {
        /// A key, from the environment or a profile.
        case key(AWSCredentials)
        /// Temporary keys from STS for a role, in exchange for a token file (a Kubernetes
        /// service account, GitHub Actions), renewed before they expire.
        case webIdentity(tokenFile: String, roleARN: String, sessionName: String, stsEndpoint: String)
        /// None: requests are sent unsigned (a public bucket).
        case anonymous

        public var description: String {
            switch self {
            case .key: "an access key"
            case let .webIdentity(_, roleARN, _, _): "a web identity for \(roleARN)"
            case .anonymous: "no credentials (unsigned requests)"
            }
        }
    }

    public var bucket: String
    /// The key prefix inside the bucket, without leading or trailing slashes; "" for none.
    public var prefix: String
    /// `scheme://host[:port]` of the store.
    public var endpoint: String
    public var region: String
    public var addressing: Addressing
    public var credentials: Credentials
    /// A PEM file of the certificate authorities to trust for an `https://` endpoint
    /// (`AWS_CA_BUNDLE`, or the profile's `ca_bundle`); `nil`: the system's trust store.
    public var caBundle: String?
    public var mode: Mode = .readWrite
    /// How long pending uploads may take at exit before they are left (and said).
    public var drainDeadline: Duration = .seconds(10)
    /// How long a connection may take to open.
    public var connectTimeout: Duration = .seconds(2)
    /// How long one request may take in all.
    public var requestTimeout: Duration = .seconds(10)
    /// How many uploads may wait; past it an upload is skipped and counted.
    public var uploadQueueLimit = 512
    /// How many uploads run at once.
    public var uploadConcurrency = 4
    /// The fleet key (`NARRATE_CACHE_STORE_KEY_FILE`): objects are sealed with it and taken
    /// only with its seal. `nil`: every object that passes its checksum is taken.
    public var seal: CacheStoreSeal?

    public init(bucket: String, prefix: String, endpoint: String, region: String, addressing: Addressing, credentials: Credentials) {
        self.bucket = bucket
        self.prefix = prefix
        self.endpoint = endpoint
        self.region = region
        self.addressing = addressing
        self.credentials = credentials
    }

    /// `s3://bucket/prefix`, as the user named it.
    public var location: String {
        prefix.isEmpty ? "s3://\(bucket)" : "s3://\(bucket)/\(prefix)"
    }

    /// The object key of the entry whose key is `hex`: derived from the hash alone
    /// (`prefix/ab/abcdef…`, as the local tier lays its entries out).
    public func objectKey(hex: String) -> String {
        let name = "\(hex.prefix(2))/\(hex)"
        return prefix.isEmpty ? name : "\(prefix)/\(name)"
    }
}
