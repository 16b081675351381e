import Foundation
import Testing

@testable import NarrateData

/// The store client against a stub S3 endpoint that misbehaves after its headers: every request
/// ends within its deadline, body included, and reads no more of a reply than it keeps.
@Suite struct S3ObjectStoreFaultTests {
    static let hex = String(repeating: "ab", count: 32)

    static func store(_ stub: FaultyHTTPStub, credentials: CacheStoreSettings.Credentials = .anonymous, timeout: Duration = .seconds(1)) -> S3ObjectStore {
        var settings = CacheStoreSettings(
            bucket: "bucket", prefix: "p", endpoint: "http://127.0.0.1:\(stub.port)", region: "us-east-1",
            addressing: .path, credentials: credentials
        )
        settings.requestTimeout = timeout
        return S3ObjectStore(settings: settings)
    }

    /// The error `operation` throws, and how long it took.
    static func failure(_ operation: () async throws -> Void) async -> (CacheStoreError?, Duration) {
        let start = ContinuousClock.now
        do {
            try await operation()
            return (nil, ContinuousClock.now - start)
        } catch {
            return (error as? CacheStoreError ?? .badSetting("not a store error: \(error)"), ContinuousClock.now - start)
        }
    }

    @Test("a GET whose body stalls after its headers times out at the request's deadline, and the connection is closed", .timeLimit(.minutes(10)))
    func stalledBody() async throws {
        // Given: headers that promise 100,000 bytes, one byte, then silence
        let stub = try FaultyHTTPStub([.stall(status: 200, promised: 100_000, sent: 1)])
        let sut = Self.store(stub)

        // When
        let (error, _) = await Self.failure { _ = try await sut.get(hex: Self.hex) }

        // Then: the deadline (1 s) ended it, not the stub, which never sends more (the time
        // limit is a watchdog that only reports a hang: how long a full run on two cores takes
        // to see the deadline pass is not what this test checks)
        #expect(error == .timedOut(host: "http://127.0.0.1:\(stub.port)", seconds: 1))
        while stub.clientsGaveUp == 0 { try await Task.sleep(for: .milliseconds(100)) }
        #expect(stub.clientsGaveUp == 1)
    }

    @Test("a GET whose body trickles in slower than the deadline allows times out; the trickle is never finished")
    func tricklingBody() async throws {
        // Given: 100 bytes, one every 0.5 s
        let stub = try FaultyHTTPStub([.trickle(body: Array(repeating: 1, count: 100), contentType: "application/octet-stream", pieces: 100, interval: 0.5)])
        let sut = Self.store(stub)

        // When
        let (error, _) = await Self.failure { _ = try await sut.get(hex: Self.hex) }

        // Then
        #expect(error == .timedOut(host: "http://127.0.0.1:\(stub.port)", seconds: 1))
        #expect(stub.tricklesFinished == 0)
    }

    @Test("a GET whose Content-Length promises more than comes fails at once as unreachable")
    func shortBody() async throws {
        // Given
        let stub = try FaultyHTTPStub([.cutShort(body: Array(repeating: 1, count: 10), contentType: "application/octet-stream", missing: 90)])
        let sut = Self.store(stub, timeout: .seconds(60))

        // When
        let (error, _) = await Self.failure { _ = try await sut.get(hex: Self.hex) }

        // Then
        guard let error, case .unreachable = error else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
    }

    @Test("a HEAD that stalls times out")
    func stalledHead() async throws {
        // Given
        let stub = try FaultyHTTPStub([.delayed(seconds: 30, .status(200))])
        let sut = Self.store(stub)

        // When
        let (error, _) = await Self.failure { _ = try await sut.exists(hex: Self.hex) }

        // Then
        #expect(error == .timedOut(host: "http://127.0.0.1:\(stub.port)", seconds: 1))
    }

    @Test("a PUT of bytes answered by an endless reply fails after reading at most the kept 64 KiB (and the socket buffers)")
    func floodedBytesUpload() async throws {
        // Given
        let stub = try FaultyHTTPStub([.flood(status: 200)])
        let sut = Self.store(stub, timeout: .seconds(60))

        // When
        let (error, _) = await Self.failure { _ = try await sut.put(hex: Self.hex, body: .bytes([1, 2, 3]), ifAbsent: false, seal: nil) }

        // Then
        #expect(error == .failed(status: 200, code: "a reply longer than 64 KiB"))
        for _ in 0..<100 where stub.clientsGaveUp == 0 && stub.floodedBytes < 64 << 20 { try await Task.sleep(for: .milliseconds(50)) }
        #expect(stub.floodedBytes < 32 << 20)
    }

    @Test("a PUT of a file answered by an endless reply fails without reading the reply whole")
    func floodedFileUpload() async throws {
        // Given
        let stub = try FaultyHTTPStub([.flood(status: 200)])
        let sut = Self.store(stub, timeout: .seconds(60))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-flood-\(UUID().uuidString)").path
        try Data(repeating: 3, count: 4_096).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When
        let (error, _) = await Self.failure { _ = try await sut.put(hex: Self.hex, body: .file(path: path), ifAbsent: false, seal: nil) }

        // Then
        #expect(error != nil)
        #expect(stub.floodedBytes < 32 << 20)
    }

    @Test("an STS exchange that stalls after its headers ends within the request's deadline", .timeLimit(.minutes(10)))
    func stalledIdentityExchange() async throws {
        // Given: the web identity's STS endpoint stalls
        let stub = try FaultyHTTPStub([.stall(status: 200, promised: 5_000, sent: 10)])
        let token = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-token-\(UUID().uuidString)").path
        try "token".write(toFile: token, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: token) }
        let sut = Self.store(stub, credentials: .webIdentity(tokenFile: token, roleARN: "arn:aws:iam::1:role/r", sessionName: "s", stsEndpoint: "http://127.0.0.1:\(stub.port)"))

        // When
        let (error, _) = await Self.failure { _ = try await sut.get(hex: Self.hex) }

        // Then
        #expect(error != nil)
        #expect(stub.requests.first?.method == "POST")
    }
}
