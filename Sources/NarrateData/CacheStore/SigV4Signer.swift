#if canImport(Glibc)
import Glibc
#endif
import Crypto
import Foundation

/// AWS Signature Version 4 (header-based), as S3 and every S3-compatible store check it:
/// the canonical request, the string to sign, the derived key and the `Authorization` header.
/// Written after AWS's "Signature Version 4 signing process" and checked against its published
/// test suite (`aws-sig-v4-test-suite`) and the S3 documentation's examples.
public struct SigV4Signer: Sendable {
    /// What is signed. The path and query are given as the resource names them, not yet
    /// percent-encoded (the signer encodes them as AWS does); header names in any case.
    public struct Request: Sendable {
        public var method: String
        public var path: String
        /// The raw query string (`a=b&c`), unencoded; "" for none.
        public var query: String
        public var headers: [(name: String, value: String)]
        /// Hex SHA-256 of the body, or `UNSIGNED-PAYLOAD`.
        public var payloadHash: String

        public init(method: String, path: String, query: String = "", headers: [(name: String, value: String)], payloadHash: String) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.payloadHash = payloadHash
        }
    }

    public let credentials: AWSCredentials
    public let region: String
    public let service: String
    /// Whether `.` and `..` segments and repeated slashes are removed from the path before it
    /// is signed: AWS does so for every service but S3, whose object keys are taken as they are.
    public let normalizesPath: Bool

    public static let algorithm = "AWS4-HMAC-SHA256"
    /// The payload hash of a request whose body is not signed (S3 takes it).
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"
    /// The SHA-256 of an empty body.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    public init(credentials: AWSCredentials, region: String, service: String, normalizesPath: Bool? = nil) {
        self.credentials = credentials
        self.region = region
        self.service = service
        self.normalizesPath = normalizesPath ?? (service != "s3")
    }

    /// The headers to send: the request's own, then `X-Amz-Date`, the session token (signed,
    /// as S3 wants it) unless the request carries it already, and `Authorization`.
    public func signedHeaders(for request: Request, at date: Date) -> [(name: String, value: String)] {
        var signed = request
        let stamp = Self.timestamp(date)
        signed.headers.append((name: "X-Amz-Date", value: stamp))
        if let token = credentials.sessionToken, !request.headers.contains(where: { $0.name.lowercased() == "x-amz-security-token" }) {
            signed.headers.append((name: "X-Amz-Security-Token", value: token))
        }
        return signed.headers + [(name: "Authorization", value: authorization(for: signed, timestamp: stamp))]
    }

    /// The `Authorization` header's value for `request`, whose headers already hold its
    /// `X-Amz-Date` (`timestamp`, `yyyyMMdd'T'HHmmss'Z'`).
    public func authorization(for request: Request, timestamp: String) -> String {
        let signature = signature(for: request, timestamp: timestamp)
        return "\(Self.algorithm) Credential=\(credentials.accessKeyID)/\(scope(timestamp)), SignedHeaders=\(signedHeaderNames(request)), Signature=\(signature)"
    }

    /// The hex signature of `request` at `timestamp`.
    public func signature(for request: Request, timestamp: String) -> String {
        let key = signingKey(day: String(timestamp.prefix(8)))
        return Self.hex(HMAC<SHA256>.authenticationCode(for: Array(stringToSign(for: request, timestamp: timestamp).utf8), using: key))
    }

    /// `AWS4-HMAC-SHA256`, the time, the scope and the canonical request's hash, one per line.
    public func stringToSign(for request: Request, timestamp: String) -> String {
        let hash = Self.hex(SHA256.hash(data: Array(canonicalRequest(for: request).utf8)))
        return "\(Self.algorithm)\n\(timestamp)\n\(scope(timestamp))\n\(hash)"
    }

    /// The method, the encoded path, the sorted query, the canonical headers, the signed
    /// header names and the payload hash, one per line.
    public func canonicalRequest(for request: Request) -> String {
        var lines = [request.method, canonicalPath(request.path), Self.canonicalQuery(request.query)]
        lines.append(contentsOf: canonicalHeaders(request).map { "\($0.name):\($0.value)" })
        lines.append("")
        lines.append(signedHeaderNames(request))
        lines.append(request.payloadHash)
        return lines.joined(separator: "\n")
    }

    // MARK: - Parts

    private func scope(_ timestamp: String) -> String {
        "\(timestamp.prefix(8))/\(region)/\(service)/aws4_request"
    }

    private func signingKey(day: String) -> SymmetricKey {
        var key = SymmetricKey(data: Array("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Array(HMAC<SHA256>.authenticationCode(for: Array(part.utf8), using: key)))
        }
        return key
    }

    /// Lowercase names, sorted; values trimmed with inner runs of spaces folded to one, and
    /// the values of a repeated name joined by commas in the order given.
    private func canonicalHeaders(_ request: Request) -> [(name: String, value: String)] {
        var values: [String: [String]] = [:]
        for header in request.headers {
            values[header.name.lowercased(), default: []].append(Self.trimmed(header.value))
        }
        return values.keys.sorted().map { (name: $0, value: values[$0, default: []].joined(separator: ",")) }
    }

    private func signedHeaderNames(_ request: Request) -> String {
        Set(request.headers.map { $0.name.lowercased() }).sorted().joined(separator: ";")
    }

    private func canonicalPath(_ path: String) -> String {
        guard normalizesPath else {
            return path.isEmpty ? "/" : Self.encode(path, keepingSlashes: true)
        }
        var segments: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..": _ = segments.popLast()
            default: segments.append(segment)
            }
        }
        var normalized = "/" + segments.joined(separator: "/")
        if path.hasSuffix("/"), normalized != "/" { normalized += "/" }
        return Self.encode(normalized, keepingSlashes: true)
    }

    /// Each `name=value` pair encoded, sorted by name and then value.
    static func canonicalQuery(_ query: String) -> String {
        guard !query.isEmpty else { return "" }
        let pairs = query.split(separator: "&", omittingEmptySubsequences: true).map { pair -> (String, String) in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (encode(String(parts[0]), keepingSlashes: false), parts.count > 1 ? encode(String(parts[1]), keepingSlashes: false) : "")
        }
        return pairs.sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// RFC 3986 percent-encoding of everything but the unreserved characters (and `/`).
    static func encode(_ text: String, keepingSlashes: Bool) -> String {
        var encoded = ""
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where keepingSlashes:
                encoded.append("/")
            default:
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return encoded
    }

    private static func trimmed(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// `yyyyMMdd'T'HHmmss'Z'` in UTC.
    public static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { String(value).leftPadded(to: 2) }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }

    static func hex<D: Sequence>(_ bytes: D) -> String where D.Element == UInt8 {
        Hex.encode(Array(bytes))
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
