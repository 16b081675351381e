import Crypto
import Foundation
import Testing

@testable import NarrateData

/// One case of AWS's SigV4 test suite or the S3 documentation's examples
/// (`Tests/Fixtures/sigv4-vectors.json`; each names where it was published).
struct SigV4Vector: Decodable, CustomTestStringConvertible {
    let name: String
    let method: String
    let path: String
    let query: String
    let headers: [[String]]
    let body: String
    let region: String
    let service: String
    let accessKey: String
    let secretKey: String
    let sessionToken: String?
    let sessionTokenSigned: Bool?
    let date: String
    let normalizePath: Bool
    let payloadHash: String?
    let canonicalRequest: String
    let stringToSign: String
    let authorization: String
    let signedHeaders: String
    let signature: String

    var testDescription: String { name }

    static let all: [SigV4Vector] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/sigv4-vectors.json")
        guard let data = try? Data(contentsOf: url), let vectors = try? JSONDecoder().decode([SigV4Vector].self, from: data) else { return [] }
        return vectors
    }()

    /// The request as signed: a token sent after signing (`post-sts-header-after`) is not in it.
    var request: SigV4Signer.Request {
        let signed = headers.filter { sessionTokenSigned != false || $0[0].lowercased() != "x-amz-security-token" }
        return SigV4Signer.Request(
            method: method, path: path, query: query, headers: signed.map { (name: $0[0], value: $0[1]) },
            payloadHash: payloadHash ?? Hex.encode(SHA256.hash(data: Array(body.utf8))))
    }

    var signer: SigV4Signer {
        // A token in the request's headers is signed as it is there; the signer adds none.
        SigV4Signer(credentials: AWSCredentials(accessKeyID: accessKey, secretAccessKey: secretKey), region: region, service: service, normalizesPath: normalizePath)
    }
}

@Suite("SigV4 signer")
struct SigV4SignerTests {
    @Test("The published vectors are all there")
    func vectorsLoad() {
        #expect(SigV4Vector.all.count >= 28)
        #expect(SigV4Vector.all.contains { $0.service == "s3" })
    }

    @Test("Canonical request, string to sign and signature equal AWS's published ones", arguments: SigV4Vector.all)
    func publishedVector(_ vector: SigV4Vector) {
        // Given
        let signer = vector.signer

        // When
        let canonical = signer.canonicalRequest(for: vector.request)
        let stringToSign = signer.stringToSign(for: vector.request, timestamp: vector.date)
        let authorization = signer.authorization(for: vector.request, timestamp: vector.date)

        // Then
        #expect(canonical == vector.canonicalRequest)
        #expect(stringToSign == vector.stringToSign)
        #expect(signer.signature(for: vector.request, timestamp: vector.date) == vector.signature)
        #expect(authorization.contains("SignedHeaders=\(vector.signedHeaders),") || authorization.contains("SignedHeaders=\(vector.signedHeaders), "))
        if vector.service != "s3" {
            // The general suite's Authorization is byte for byte ours (S3's examples space it otherwise).
            #expect(authorization == vector.authorization)
        }
    }

    @Test("With a session token the signer adds the date and the token, and signs both")
    func sessionTokenIsSigned() throws {
        // Given: post-sts-header-before, whose request carries the token it signs
        let vector = try #require(SigV4Vector.all.first { $0.name == "post-sts-header-before" })
        let token = try #require(vector.sessionToken)
        let bare = vector.request.headers.filter { !["x-amz-date", "x-amz-security-token"].contains($0.name.lowercased()) }
        let signer = SigV4Signer(credentials: AWSCredentials(accessKeyID: vector.accessKey, secretAccessKey: vector.secretKey, sessionToken: token), region: vector.region, service: vector.service)
        let date = try #require(Self.date(vector.date))

        // When
        let headers = signer.signedHeaders(for: .init(method: vector.method, path: vector.path, query: vector.query, headers: bare, payloadHash: vector.request.payloadHash), at: date)

        // Then: the same signature as the published request with its token in place
        #expect(headers.first { $0.name == "X-Amz-Date" }?.value == vector.date)
        #expect(headers.first { $0.name == "X-Amz-Security-Token" }?.value == token)
        #expect(headers.last?.name == "Authorization")
        #expect(headers.last?.value == vector.authorization)
    }

    @Test("A token already in the request is not added twice")
    func tokenNotDuplicated() throws {
        let vector = try #require(SigV4Vector.all.first { $0.name == "post-sts-header-before" })
        let signer = SigV4Signer(credentials: AWSCredentials(accessKeyID: vector.accessKey, secretAccessKey: vector.secretKey, sessionToken: vector.sessionToken), region: vector.region, service: vector.service)
        let withoutDate = vector.request.headers.filter { $0.name.lowercased() != "x-amz-date" }

        let headers = signer.signedHeaders(for: .init(method: vector.method, path: vector.path, headers: withoutDate, payloadHash: vector.request.payloadHash), at: try #require(Self.date(vector.date)))

        #expect(headers.filter { $0.name.lowercased() == "x-amz-security-token" }.count == 1)
    }

    @Test("S3 paths are encoded once and never normalized; other services' are normalized")
    func paths() {
        let s3 = SigV4Signer(credentials: AWSCredentials(accessKeyID: "A", secretAccessKey: "S"), region: "auto", service: "s3")
        let other = SigV4Signer(credentials: AWSCredentials(accessKeyID: "A", secretAccessKey: "S"), region: "us-east-1", service: "service")
        let request = SigV4Signer.Request(method: "GET", path: "/b/a//./x$y", headers: [(name: "Host", value: "h")], payloadHash: SigV4Signer.emptyPayloadHash)

        #expect(s3.canonicalRequest(for: request).split(separator: "\n")[1] == "/b/a//./x%24y")
        #expect(other.canonicalRequest(for: request).split(separator: "\n")[1] == "/b/a/x%24y")
    }

    @Test("Timestamps are UTC, as X-Amz-Date wants them")
    func timestamp() {
        #expect(SigV4Signer.timestamp(Date(timeIntervalSince1970: 1_440_938_160)) == "20150830T123600Z")
        #expect(SigV4Signer.timestamp(Date(timeIntervalSince1970: 1_369_353_600)) == "20130524T000000Z")
    }

    @Test("Credentials never show their key or secret when printed")
    func credentialsRedacted() {
        let credentials = AWSCredentials(accessKeyID: "AKIAEXAMPLEKEYID", secretAccessKey: "very-secret", sessionToken: "token-value")
        for text in [String(describing: credentials), String(reflecting: credentials), "\(CacheStoreSettings.Credentials.key(credentials))"] {
            #expect(!text.contains("AKIAEXAMPLEKEYID"))
            #expect(!text.contains("very-secret"))
            #expect(!text.contains("token-value"))
        }
    }

    static func date(_ stamp: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.date(from: stamp)
    }
}
