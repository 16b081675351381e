import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NarrateDomain

/// The keys requests are signed with now: fixed ones, none, or temporary ones that STS gives
/// for a web identity token (`AssumeRoleWithWebIdentity`), asked again five minutes before
/// they expire.
actor CredentialSource {
    private let configured: CacheStoreSettings.Credentials
    private let client: HTTPClient
    private let timeout: Duration
    private var temporary: (keys: AWSCredentials, expires: Date)?

    init(_ configured: CacheStoreSettings.Credentials, client: HTTPClient, timeout: Duration) {
        self.configured = configured
        self.client = client
        self.timeout = timeout
    }

    /// The keys to sign with; `nil` for unsigned requests.
    func current() async throws(CacheStoreError) -> AWSCredentials? {
        switch configured {
        case .anonymous:
            return nil
        case let .key(keys):
            return keys
        case let .webIdentity(tokenFile, roleARN, sessionName, stsEndpoint):
            if let temporary, temporary.expires.timeIntervalSinceNow > 300 { return temporary.keys }
            let fresh = try await assumeRole(tokenFile: tokenFile, roleARN: roleARN, sessionName: sessionName, endpoint: stsEndpoint)
            temporary = fresh
            return fresh.keys
        }
    }

    private func assumeRole(tokenFile: String, roleARN: String, sessionName: String, endpoint: String) async throws(CacheStoreError) -> (keys: AWSCredentials, expires: Date) {
        guard let token = try? String(contentsOfFile: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), !token.isEmpty else {
            throw .badSetting("The web identity token file \(tokenFile) (AWS_WEB_IDENTITY_TOKEN_FILE) cannot be read.")
        }
        let form = [
            ("Action", "AssumeRoleWithWebIdentity"), ("Version", "2011-06-15"), ("RoleArn", roleARN),
            ("RoleSessionName", sessionName), ("WebIdentityToken", token), ("DurationSeconds", "3600"),
        ].map { "\($0.0)=\(SigV4Signer.encode($0.1, keepingSlashes: false))" }.joined(separator: "&")
        var request = HTTPClientRequest(url: endpoint.hasSuffix("/") ? endpoint : endpoint + "/")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: form))
        let status: Int
        let body: String
        let answer: (status: Int, body: String)?
        do {
            // The deadline covers the whole answer, its body included: STS that stalls after
            // its headers or trickles ends here.
            answer = try await DeadlineRace.run(within: timeout) { [client, timeout, request] in
                let response = try await client.execute(request, timeout: .nanoseconds(Int64(timeout.seconds * 1e9)))
                return (Int(response.status.code), String(buffer: try await response.body.collect(upTo: Self.maxAnswerBytes)))
            }
        } catch {
            throw .unreachable(host: endpoint, reason: "the web identity could not be exchanged for keys")
        }
        guard let answer else { throw .timedOut(host: endpoint, seconds: timeout.seconds) }
        (status, body) = answer
        guard status == 200,
              let key = Self.element("AccessKeyId", in: body), let secret = Self.element("SecretAccessKey", in: body),
              let session = Self.element("SessionToken", in: body)
        else {
            throw .refused(status: status, code: Self.element("Code", in: body) ?? "AssumeRoleWithWebIdentity")
        }
        let expires = Self.element("Expiration", in: body).flatMap { ISO8601DateFormatter().date(from: $0) } ?? Date().addingTimeInterval(900)
        return (AWSCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: session), expires)
    }

    /// The longest answer STS may give (its keys are a few kilobytes).
    static let maxAnswerBytes = 1 << 20

    /// The text of the first `<name>…</name>` in `xml`.
    static func element(_ name: String, in xml: String) -> String? {
        guard let start = xml.range(of: "<\(name)>"), let end = xml.range(of: "</\(name)>", range: start.upperBound..<xml.endIndex) else { return nil }
        return String(xml[start.upperBound..<end.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
