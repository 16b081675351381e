import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A running `narrate serve` on ephemeral loopback ports, with its own cache and library:
/// started in `init` (which waits for its "Listening on" line), killed in `deinit` unless
/// `terminate()` stopped it.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    let folder: TemporaryFolder
    private(set) var port = 0
    private(set) var wyomingPort: Int?
    private let outputPipe = Pipe()
    /// One session for every service of the run, never torn down: on Linux, FoundationNetworking
    /// tears a session down on libcurl and DispatchSources in a way that races with other
    /// sessions' work (swift-corelibs-foundation#4791, #5016), and a session per service, made
    /// and dropped by many tests at once, crashed the test process now and then (SIGSEGV in
    /// memmove on a Dispatch thread).
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 60
        configuration.httpMaximumConnectionsPerHost = 64
        return URLSession(configuration: configuration)
    }()

    init(_ extra: [String] = [], environment: [String: String] = [:], folder: TemporaryFolder? = nil) throws {
        let folder = try folder ?? TemporaryFolder()
        self.folder = folder
        process.executableURL = URL(fileURLWithPath: NarrateProcess.binary)
        process.arguments = ["serve", "--port", "0", "--cache-dir", folder.path("cache"), "--library", folder.path("library.sqlite")] + extra
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { _, new in new }
        process.environment = merged
        process.standardOutput = outputPipe
        // A file, not a pipe: a pipe nobody drains would stall the service once it fills.
        _ = FileManager.default.createFile(atPath: folder.path("serve.log"), contents: nil)
        process.standardError = FileHandle(forWritingAtPath: folder.path("serve.log"))
        process.standardInput = FileHandle.nullDevice
        try NarrateProcess.launching.withLock { try process.run() }
        // The one line on standard output says where it listens.
        var line = Data()
        let handle = outputPipe.fileHandleForReading
        while !line.contains(UInt8(ascii: "\n")) {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        let ports = text.matches(of: /127\.0\.0\.1:(\d+)/).compactMap { Int($0.output.1) }
        guard let http = ports.first else {
            process.terminate()
            process.waitUntilExit()
            let errors = (try? String(contentsOfFile: folder.path("serve.log"), encoding: .utf8)) ?? ""
            throw ServeFailure(message: "narrate serve did not start: \(text) \(errors)")
        }
        port = http
        wyomingPort = ports.count > 1 ? ports[1] : nil
    }

    /// Starts the service on a thread of its own: `init` blocks until the service has started,
    /// and a test must not hold one of the few threads every other test needs meanwhile.
    static func start(_ extra: [String] = [], environment: [String: String] = [:], folder: TemporaryFolder? = nil) async throws -> ServeProcess {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try ServeProcess(extra, environment: environment, folder: folder) })
            }.start()
        }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    struct ServeFailure: Error, CustomStringConvertible { var message: String; var description: String { message } }

    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: Data
        var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
        var errorCode: String? { (json?["error"] as? [String: Any])?["code"] as? String }
        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
    }

    /// One HTTP request to the service.
    func request(_ method: String, _ path: String, json: [String: Any]? = nil, body: Data? = nil, headers: [String: String] = [:]) async throws -> Reply {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else if let body {
            // URLSession would call it a form; a book is sent as bytes.
            request.httpBody = body
            request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await Self.session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields { fields["\(key)"] = "\(value)" }
        return Reply(status: http.statusCode, headers: fields, body: data)
    }

    /// A speech request in OpenAI's shape.
    func speech(_ input: String, voice: String = "alloy", format: String = "wav", extra: [String: Any] = [:], headers: [String: String] = [:]) async throws -> Reply {
        var body: [String: Any] = ["model": "tts-1", "input": input, "voice": voice, "response_format": format]
        body.merge(extra) { _, new in new }
        return try await request("POST", "/v1/audio/speech", json: body, headers: headers)
    }

    /// SIGTERM, then the exit status (waiting on a thread of its own).
    func terminate() async -> Int32 {
        kill(process.processIdentifier, SIGTERM)
        return await withCheckedContinuation { continuation in
            Thread {
                self.process.waitUntilExit()
                continuation.resume(returning: self.process.terminationStatus)
            }.start()
        }
    }

    /// The `narrate-worker` processes this service started (its children).
    func workerProcessIDs() -> [Int32] {
        let parent = process.processIdentifier
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == parent && stat.contains("(narrate-worker)")
        }
    }

    /// What the service has logged on standard error.
    func log() -> String {
        (try? String(contentsOfFile: folder.path("serve.log"), encoding: .utf8)) ?? ""
    }
}
