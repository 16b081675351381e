import AsyncHTTPClient
import Foundation
import Glibc
import NIOCore
import NIOHTTP1
import NarrateDomain

/// Piper voices fetched over HTTP(S) into a voice folder: a repository's `voices.json`, and
/// each file streamed to a staging file (`VoiceDownloadPart`) that a later run resumes with a
/// `Range` request. Redirects are followed (Hugging Face sends files from a CDN).
public struct PiperVoiceDownloader: VoiceInstallRepositoryContract {
    /// How long a connection may take to open, and the server may stay silent.
    private let connectTimeout: Duration
    private let readTimeout: Duration

    /// The largest `voices.json` read (Piper's is about 1 MB).
    static let maxIndexBytes = 32 << 20

    public init(connectTimeout: Duration = .seconds(15), readTimeout: Duration = .seconds(60)) {
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
    }

    public func index(repositoryURL: String) async throws(VoiceInstallError) -> [String: PiperVoiceIndexEntry]? {
        let url = repositoryURL + "/voices.json"
        let bytes: ByteBuffer? = try await withClient(url) { client in
            let response = try await client.execute(HTTPClientRequest(url: url), timeout: headTimeout)
            if response.status == .notFound { return nil }
            try Self.requireSuccess(response, url: url)
            return try await response.body.collect(upTo: Self.maxIndexBytes)
        }
        guard let bytes else { return nil }
        return try PiperVoiceIndex.parse(Data(bytes.readableBytesView), url: url)
    }

    public func remoteSize(of url: String) async throws(VoiceInstallError) -> Int64? {
        try await withClient(url) { client in
            var request = HTTPClientRequest(url: url)
            request.method = .HEAD
            let response = try await client.execute(request, timeout: headTimeout)
            try Self.requireSuccess(response, url: url)
            return response.headers.first(name: "Content-Length").flatMap { Int64($0) }
        }
    }

    public func prepare(directory: String) throws(VoiceInstallError) {
        do { try Folder.makeAll(directory) } catch { throw .writeFailed(path: directory, reason: error.reason) }
    }

    public func installedFile(named fileName: String, in directory: String) async throws(VoiceInstallError) -> VoiceFileFacts? {
        try VoiceDownloadPart.facts(of: directory + "/" + fileName)
    }

    public func download(
        _ file: VoiceDownloadFile, into directory: String, progress: @escaping @Sendable (VoiceDownloadProgress) -> Void
    ) async throws(VoiceInstallError) -> VoiceFileFacts {
        let part = try VoiceDownloadPart(path: VoiceDownloadPart.path(for: file.fileName, in: directory))
        if part.size > file.maxBytes || file.expectedBytes.map({ part.size > $0 }) == true { try part.reset() }
        // A part as long as the listed file is whole already: its checks decide.
        if let expected = file.expectedBytes, part.size == expected, expected > 0 {
            progress(VoiceDownloadProgress(file: file.fileName, bytesDone: part.size, bytesTotal: expected, resumedFrom: part.size, isFinished: true))
            return try part.finish()
        }
        do {
            try await fetch(file, into: part, progress: progress)
        } catch {
            // What arrived is kept for a resume, unless the file is refused or gone.
            switch error {
            case .tooLarge, .notFound: part.remove()
            default: break
            }
            throw error
        }
        return try part.finish()
    }

    public func voiceInfo(config: String, model: String, name: String) throws(VoiceInstallError) -> PiperVoiceInfo {
        guard let handle = FileHandle(forReadingAtPath: config) else { throw .invalidVoice(name: name, reason: "its configuration cannot be read") }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: PiperVoiceConfig.maxBytes + 1) ?? Data() } catch { throw .invalidVoice(name: name, reason: "its configuration cannot be read: \(error)") }
        do {
            let parsed = try PiperVoiceConfig.parse(data, path: name + ".onnx.json")
            return PiperVoiceInfo(model: model, quality: parsed.audio.quality, speakers: parsed.speakers, speakerNames: parsed.speakerNames, sampleRate: parsed.audio.sampleRate)
        } catch {
            throw .invalidVoice(name: name, reason: error.reason)
        }
    }

    public func moveIntoPlace(_ file: VoiceFileFacts, as fileName: String, in directory: String) throws(VoiceInstallError) {
        let destination = directory + "/" + fileName
        guard rename(file.path, destination) == 0 else { throw .writeFailed(path: destination, reason: SystemCallError.last("rename", destination).reason) }
    }

    public func discard(_ file: VoiceFileFacts) {
        unlink(file.path)
    }

    // MARK: - One download

    /// Streams `file` into `part`, from its end when the server takes a range (206), from the
    /// start when it sends the whole file (200) or the range cannot be served (416).
    private func fetch(
        _ file: VoiceDownloadFile, into part: VoiceDownloadPart, progress: @escaping @Sendable (VoiceDownloadProgress) -> Void
    ) async throws(VoiceInstallError) {
        try await withClient(file.url) { client in
            var resumedFrom = part.size
            var request = HTTPClientRequest(url: file.url)
            if resumedFrom > 0 { request.headers.add(name: "Range", value: "bytes=\(resumedFrom)-") }
            var response = try await client.execute(request, timeout: headTimeout)
            if response.status == .rangeNotSatisfiable, resumedFrom > 0 {
                try part.reset()
                resumedFrom = 0
                response = try await client.execute(HTTPClientRequest(url: file.url), timeout: headTimeout)
            }
            try Self.requireSuccess(response, url: file.url)
            let length = response.headers.first(name: "Content-Length").flatMap { Int64($0) }
            if response.status == .partialContent, resumedFrom > 0, Self.rangeStart(response.headers) == resumedFrom {
                // Goes on from the part's end.
            } else {
                try part.reset()
                resumedFrom = 0
            }
            let total = length.map { $0 + resumedFrom }
            if let total, total > file.maxBytes { throw VoiceInstallError.tooLarge(url: file.url, bytes: total, limit: file.maxBytes) }
            progress(VoiceDownloadProgress(file: file.fileName, bytesDone: part.size, bytesTotal: total ?? file.expectedBytes, resumedFrom: resumedFrom))
            do {
                for try await buffer in response.body {
                    guard part.size + Int64(buffer.readableBytes) <= file.maxBytes else {
                        throw VoiceInstallError.tooLarge(url: file.url, bytes: total, limit: file.maxBytes)
                    }
                    try buffer.withUnsafeReadableBytes { bytes throws(VoiceInstallError) in try part.append(bytes) }
                    progress(VoiceDownloadProgress(file: file.fileName, bytesDone: part.size, bytesTotal: total ?? file.expectedBytes, resumedFrom: resumedFrom))
                }
            } catch let error as VoiceInstallError {
                throw error
            } catch {
                throw Self.interruption(error, url: file.url, bytesDone: part.size)
            }
            if let total, part.size < total {
                throw VoiceInstallError.interrupted(url: file.url, bytesDone: part.size, reason: "the server sent \(part.size) of \(total) bytes")
            }
            progress(VoiceDownloadProgress(file: file.fileName, bytesDone: part.size, bytesTotal: part.size, resumedFrom: resumedFrom, isFinished: true))
        }
    }

    /// Where a 206's `Content-Range: bytes START-END/TOTAL` starts.
    private static func rangeStart(_ headers: HTTPHeaders) -> Int64? {
        guard let range = headers.first(name: "Content-Range"), range.hasPrefix("bytes ") else { return nil }
        return range.dropFirst(6).split(separator: "-").first.flatMap { Int64($0) }
    }

    // MARK: - HTTP

    /// How long a request may wait for its answer's head.
    private var headTimeout: TimeAmount {
        .milliseconds(Int64((connectTimeout + readTimeout).seconds * 1000))
    }

    /// Throws the error a failure status stands for.
    private static func requireSuccess(_ response: HTTPClientResponse, url: String) throws(VoiceInstallError) {
        let status = Int(response.status.code)
        guard (200..<300).contains(status) else {
            throw status == 404 ? .notFound(url: url) : .httpStatus(url: url, status: status)
        }
    }

    /// Runs `body` with a client of its own, shut down afterwards, and maps transport errors.
    private func withClient<T: Sendable>(_ url: String, _ body: (HTTPClient) async throws -> T) async throws(VoiceInstallError) -> T {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .follow(max: 10, allowCycles: false),
            timeout: .init(connect: .milliseconds(Int64(connectTimeout.seconds * 1000)), read: .milliseconds(Int64(readTimeout.seconds * 1000)))
        )
        // A refused connection fails at once, not after retries until the connect timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let result: Result<T, VoiceInstallError>
        do {
            result = .success(try await body(client))
        } catch let error as VoiceInstallError {
            result = .failure(error)
        } catch {
            result = .failure(Self.transportError(error, url: url))
        }
        try? await client.shutdown()
        return try result.get()
    }

    /// A failure before the body began.
    private static func transportError(_ error: any Error, url: String) -> VoiceInstallError {
        let reason = describe(error)
        if reason.contains("timed out") || reason.contains("stopped sending") { return .timedOut(url: url, reason: reason) }
        return .unreachable(url: url, reason: reason)
    }

    /// A failure while the body came: what arrived is kept.
    private static func interruption(_ error: any Error, url: String, bytesDone: Int64) -> VoiceInstallError {
        let reason = describe(error)
        if reason.contains("stopped sending") { return .timedOut(url: url, reason: reason) }
        return .interrupted(url: url, bytesDone: bytesDone, reason: reason)
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout: return "the connection timed out"
            case .readTimeout: return "the server stopped sending"
            case .deadlineExceeded: return "no answer in time, it timed out"
            case .remoteConnectionClosed: return "the server closed the connection"
            case .redirectCycleDetected, .redirectLimitReached: return "too many redirects"
            case .invalidURL, .emptyHost, .emptyScheme: return "the URL is not valid"
            default: break
            }
        }
        if error is NIOTooManyBytesError { return "the answer is too large" }
        let text = String(describing: error)
        if text.contains("connectTimeout") { return "the connection timed out" }
        // NIO words a refused connect as "connection reset (error set): Connection refused".
        if text.contains("refused") || text.contains("errno: 111") { return "the connection was refused" }
        if text.contains("connection reset") || text.contains("ECONNRESET") || text.contains("errno: 104") { return "the connection was reset" }
        if text.contains("invalidEOFState") || text.contains("remoteConnectionClosed") { return "the server closed the connection" }
        if text.contains("NXDOMAIN") || text.contains("resolve") || text.contains("getaddrinfo") { return "the host name could not be resolved" }
        return text.count > 160 ? String(text.prefix(160)) : text
    }
}
