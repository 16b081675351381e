/// An AWS access key with its secret and, for temporary credentials, a session token. Its
/// description names neither the key nor the secret, so it can be logged or put in an error
/// by mistake without leaking them.
public struct AWSCredentials: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public let accessKeyID: String
    public let secretAccessKey: String
    public let sessionToken: String?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken.flatMap { $0.isEmpty ? nil : $0 }
    }

    public var description: String { sessionToken == nil ? "AWS credentials (redacted)" : "temporary AWS credentials (redacted)" }
    public var debugDescription: String { description }
}
