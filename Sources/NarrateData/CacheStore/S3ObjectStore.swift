import AsyncHTTPClient
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import NarrateDomain
import NIOCore
import NIOHTTP1
import NIOSSL
import Synchronization

/// The cache's objects in an S3-compatible bucket, over AsyncHTTPClient with SigV4 signing.
/// Requests carry their own deadline (`requestTimeout`) and connections open within
/// `connectTimeout`; nothing here retries (the tier's circuit breaker decides when to ask again).
public final class S3ObjectStore: ObjectStoreContract {
    public let settings: CacheStoreSettings
    private let client: HTTPClient
    private let credentials: CredentialSource
    private let clock: @Sendable () -> Date

    /// No cache entry is this large; a bigger object is refused unread.
    /// (A chunk's entry is a few megabytes; with the 16 reads a book's planning runs at once,
    /// this bounds their memory to 1 GiB whatever the store holds.)
    public static let maxObjectBytes = 64 << 20

    public var location: String { settings.location }

    /// - Parameter clock: the time requests are signed with.
    public init(settings: CacheStoreSettings, clock: @escaping @Sendable () -> Date = Date.init) {
        self.settings = settings
        self.clock = clock
        client = Self.client(connectTimeout: settings.connectTimeout, caBundle: settings.caBundle)
        credentials = CredentialSource(settings.credentials, client: client, timeout: settings.requestTimeout)
    }

    public func get(hex: String) async throws(CacheStoreError) -> StoreObject? {
        let response = try await send(method: .GET, hex: hex)
        switch response.status {
        case 200: return StoreObject(bytes: response.body, seal: response.seal)
        case 404: return nil
        default: throw failure(response)
        }
    }

    public func exists(hex: String) async throws(CacheStoreError) -> Bool {
        let response = try await send(method: .HEAD, hex: hex)
        switch response.status {
        case 200: return true
        case 404: return false
        default: throw failure(response)
        }
    }

    public func put(hex: String, body: ObjectBody, ifAbsent: Bool, seal: String?) async throws(CacheStoreError) -> ObjectPutOutcome {
        let response = try await send(method: .PUT, hex: hex, body: body, ifAbsent: ifAbsent, seal: seal)
        switch response.status {
        case 200, 201, 204: return .stored
        case 412: return .alreadyPresent
        case 501 where ifAbsent: return .conditionUnsupported
        case 400 where ifAbsent && (response.code == "NotImplemented" || response.code == "InvalidArgument"): return .conditionUnsupported
        default: throw failure(response)
        }
    }

    // MARK: - Requests

    private struct Answer {
        var status: Int
        var code: String
        var body: [UInt8]
        var seal: String?
    }

    /// The metadata header an object's seal travels in (S3 keeps `x-amz-meta-*` with the object).
    static let sealHeader = "x-amz-meta-narrate-seal"

    private func failure(_ answer: Answer) -> CacheStoreError {
        answer.status == 401 || answer.status == 403 ? .refused(status: answer.status, code: answer.code) : .failed(status: answer.status, code: answer.code)
    }

    /// The URL's host (with the bucket for virtual-host addressing) and the object's path.
    func address(hex: String) -> (base: String, host: String, path: String) {
        let key = settings.objectKey(hex: hex)
        let endpoint = settings.endpoint
        let scheme = endpoint.hasPrefix("https://") ? "https" : "http"
        var authority = String(endpoint.dropFirst(scheme.count + 3))
        switch settings.addressing {
        case .path:
            return ("\(scheme)://\(authority)", authority, "/\(settings.bucket)/\(key)")
        case .virtualHost:
            authority = "\(settings.bucket).\(authority)"
            return ("\(scheme)://\(authority)", authority, "/\(key)")
        }
    }

    private func send(method: HTTPMethod, hex: String, body: ObjectBody? = nil, ifAbsent: Bool = false, seal: String? = nil) async throws(CacheStoreError) -> Answer {
        let (base, host, path) = address(hex: hex)
        let endpoint = settings.endpoint
        // A file body is opened now, so that its length is known and fixed.
        var file: (descriptor: CInt, size: Int)?
        if case let .file(filePath)? = body {
            let descriptor = open(filePath, O_RDONLY | O_CLOEXEC)
            let size = descriptor >= 0 ? lseek(descriptor, 0, SEEK_END) : -1
            guard size >= 0 else {
                if descriptor >= 0 { close(descriptor) }
                throw .failed(status: 0, code: "the local entry to upload is gone")
            }
            file = (descriptor, Int(size))
        }
        let bodyLength: Int? = switch body {
        case let .bytes(bytes)?: bytes.count
        case .file?: file?.size
        case nil: nil
        }
        var headers: [(name: String, value: String)] = [(name: "Host", value: host)]
        // An upload's body is not hashed for the signature: every entry carries its own
        // checksum, verified whenever it is read back, and hashing megabytes per upload costs
        // the CPU narration needs.
        let payloadHash = body == nil ? SigV4Signer.emptyPayloadHash : SigV4Signer.unsignedPayload
        headers.append((name: "X-Amz-Content-SHA256", value: payloadHash))
        if ifAbsent { headers.append((name: "If-None-Match", value: "*")) }
        if let seal { headers.append((name: Self.sealHeader, value: seal)) }
        if let bodyLength {
            headers.append((name: "Content-Length", value: String(bodyLength)))
            headers.append((name: "Content-Type", value: "application/octet-stream"))
        }
        let timeout = settings.requestTimeout
        let request = Exchange(method: method, base: base, path: path, headers: headers, payloadHash: payloadHash, body: body, file: file, plainHTTP: !endpoint.hasPrefix("https://"))
        // One deadline covers the whole exchange: the keys (an STS exchange may be due), the
        // connection, the headers and every byte of the body. A store that stalls after its
        // headers, trickles, or promises more than it sends ends here, not in the HTTP client.
        let answer: Answer?
        do {
            answer = try await DeadlineRace.run(within: timeout) { [self] in try await exchange(request) }
        } catch let error as CacheStoreError {
            throw error
        } catch let error as HTTPClientError where [.deadlineExceeded, .connectTimeout, .readTimeout, .getConnectionFromPoolTimeout].contains(error) {
            throw .timedOut(host: endpoint, seconds: error == .connectTimeout ? settings.connectTimeout.seconds : timeout.seconds)
        } catch is ResponseAccumulator.ResponseTooBigError {
            throw Self.replyTooLarge(status: 0)
        } catch {
            throw .unreachable(host: endpoint, reason: Self.reason(error))
        }
        guard let answer else { throw .timedOut(host: endpoint, seconds: timeout.seconds) }
        return answer
    }

    /// The most of a reply that is not an object (an error document, an upload's answer) that
    /// is read; a longer one fails the request.
    static let maxReplyBytes = 64 << 10

    private static func replyTooLarge(status: Int) -> CacheStoreError {
        .failed(status: status, code: "a reply longer than \(maxReplyBytes >> 10) KiB")
    }

    /// One request, ready to sign and send.
    private struct Exchange: @unchecked Sendable {
        var method: HTTPMethod
        var base: String
        var path: String
        var headers: [(name: String, value: String)]
        var payloadHash: String
        var body: ObjectBody?
        var file: (descriptor: CInt, size: Int)?
        var plainHTTP: Bool
    }

    private func exchange(_ exchange: Exchange) async throws -> Answer {
        var headers = exchange.headers
        let keys: AWSCredentials?
        do {
            keys = try await credentials.current()
        } catch {
            if let file = exchange.file { close(file.descriptor) }
            throw error
        }
        if let keys {
            let signer = SigV4Signer(credentials: keys, region: settings.region, service: "s3")
            headers = signer.signedHeaders(for: .init(method: exchange.method.rawValue, path: exchange.path, headers: headers, payloadHash: exchange.payloadHash), at: clock())
        }
        let url = exchange.base + SigV4Signer.encode(exchange.path, keepingSlashes: true)
        if let file = exchange.file {
            return try await sendFile(file, method: exchange.method, url: url, headers: headers, plainHTTP: exchange.plainHTTP)
        }
        var request = HTTPClientRequest(url: url)
        request.method = exchange.method
        for header in headers where header.name != "Content-Length" {
            request.headers.add(name: header.name, value: header.value)
        }
        if case let .bytes(bytes)? = exchange.body { request.body = .bytes(ByteBuffer(bytes: bytes)) }
        let response = try await client.execute(request, timeout: .nanoseconds(Int64(settings.requestTimeout.seconds * 1e9)))
        let status = Int(response.status.code)
        let isObject = status == 200 && exchange.method == .GET
        if isObject, let length = response.headers.first(name: "content-length").flatMap(Int.init), length > Self.maxObjectBytes {
            throw CacheStoreError.tooLarge(bytes: length)
        }
        let buffer: ByteBuffer
        do {
            buffer = try await response.body.collect(upTo: isObject ? Self.maxObjectBytes : Self.maxReplyBytes)
        } catch is NIOTooManyBytesError {
            throw isObject ? CacheStoreError.tooLarge(bytes: Self.maxObjectBytes + 1) : Self.replyTooLarge(status: status)
        }
        let bytes = Array(buffer.readableBytesView)
        return Answer(status: status, code: status >= 300 ? Self.errorCode(bytes) : "", body: bytes, seal: response.headers.first(name: Self.sealHeader))
    }

    /// Uploads an open file (closed when done): over plain HTTP as a file region, which the
    /// kernel sends from the page cache (`sendfile`); over TLS read into one buffer first.
    private func sendFile(_ file: (descriptor: CInt, size: Int), method: HTTPMethod, url: String, headers: [(name: String, value: String)], plainHTTP: Bool) async throws -> Answer {
        let handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: file.descriptor)
        defer { try? handle.close() }
        var request = try HTTPClient.Request(url: url, method: method, headers: HTTPHeaders(headers.filter { $0.name != "Content-Length" }.map { ($0.name, $0.value) }))
        if plainHTTP {
            let region = FileRegion(fileHandle: handle, readerIndex: 0, endIndex: file.size)
            request.body = .stream(contentLength: Int64(file.size)) { writer in writer.write(.fileRegion(region)) }
        } else {
            var buffer = ByteBufferAllocator().buffer(capacity: file.size)
            var offset = 0
            while offset < file.size {
                let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: file.size - offset) { pointer in
                    max(0, pread(file.descriptor, pointer.baseAddress, file.size - offset, off_t(offset)))
                }
                guard count > 0 else { throw CacheStoreError.failed(status: 0, code: "the local entry to upload could not be read") }
                offset += count
            }
            let whole = buffer
            request.body = .stream(contentLength: Int64(file.size)) { writer in writer.write(.byteBuffer(whole)) }
        }
        // The reply is kept up to `maxReplyBytes` (a longer one fails the task), and the
        // exchange's deadline cancels the task.
        let accumulator = ResponseAccumulator(request: request, maxBodySize: Self.maxReplyBytes)
        let task = client.execute(request: request, delegate: accumulator, deadline: .now() + .nanoseconds(Int64(settings.requestTimeout.seconds * 1e9)))
        let response = try await withTaskCancellationHandler {
            try await task.futureResult.get()
        } onCancel: {
            task.cancel()
        }
        let bytes = response.body.map { Array($0.readableBytesView) } ?? []
        let status = Int(response.status.code)
        return Answer(status: status, code: status >= 300 ? Self.errorCode(bytes) : "", body: bytes)
    }

    /// `<Code>…</Code>` of an S3 error document, if any.
    static func errorCode(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(4096), as: UTF8.self)
        guard let start = text.range(of: "<Code>"), let end = text.range(of: "</Code>", range: start.upperBound..<text.endIndex) else { return "" }
        return String(text[start.upperBound..<end.lowerBound].prefix(64))
    }

    /// A short reason for a transport failure, without the request (which carries no secret,
    /// but is long).
    private static func reason(_ error: any Error) -> String {
        let text = String(describing: error)
        if text.contains("connectionRefused") || text.contains("Connection refused") { return "connection refused" }
        if text.contains("remoteConnectionClosed") || text.contains("Connection reset") { return "the connection was closed" }
        return String(text.prefix(160))
    }

    // MARK: - The HTTP client

    /// One client per connect timeout and trust store, for the life of the process
    /// (HTTPClient must be shut down before it is released, so these never are).
    private static func client(connectTimeout: Duration, caBundle: String?) -> HTTPClient {
        let milliseconds = Int64(connectTimeout.seconds * 1000)
        let name = "\(milliseconds) \(caBundle ?? "")"
        return clients.withLock { clients in
            if let client = clients[name] { return client }
            var configuration = HTTPClient.Configuration(
                redirectConfiguration: .disallow,
                timeout: .init(connect: .milliseconds(milliseconds))
            )
            if let caBundle {
                var tls = TLSConfiguration.makeClientConfiguration()
                tls.trustRoots = .file(caBundle)
                configuration.tlsConfiguration = tls
            }
            configuration.connectionPool = .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 16)
            // A refused connection fails this request at once; the breaker decides when to retry.
            configuration.connectionPool.retryConnectionEstablishment = false
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            clients[name] = client
            return client
        }
    }

    private static let clients = Mutex<[String: HTTPClient]>([:])
}
