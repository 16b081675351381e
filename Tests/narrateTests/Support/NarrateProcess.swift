import Foundation
import Testing

/// Runs the built `narrate` binary (and other programs) as a subprocess, the way a user does.
struct ProcessResult {
    var status: Int32
    var stdout: Data
    var stderr: String
}

enum NarrateProcess {
    /// The package root (the folder holding Package.swift).
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// The corpus of real books shared by the team: `../shared/corpus` beside the checkout.
    static let corpus = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")

    static func corpusFile(_ relativePath: String) throws -> String {
        let path = corpus.appendingPathComponent(relativePath).path
        try #require(FileManager.default.fileExists(atPath: path), "the corpus file \(path) is missing (../shared/corpus beside the checkout)")
        return path
    }

    /// The `narrate` binary built beside this test bundle.
    static let binary: String = {
        let bundleFolder = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        let candidates = [
            bundleFolder.appendingPathComponent("narrate").path,
            packageRoot.appendingPathComponent(".build/debug/narrate").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
    }()

    /// Runs `narrate` with `arguments` in `directory`.
    @discardableResult
    static func narrate(_ arguments: [String], in directory: URL, stdin: Data? = nil, environment: [String: String] = [:]) async throws -> ProcessResult {
        try await run(binary, arguments, in: directory, stdin: stdin, environment: environment)
    }

    /// Runs a program and waits for it on a thread of its own: a test waiting for a process
    /// must not hold one of the few threads every other test needs.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], in directory: URL, stdin: Data? = nil, environment: [String: String] = [:]) async throws -> ProcessResult {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try runBlocking(executable, arguments, in: directory, stdin: stdin, environment: environment) })
            }.start()
        }
    }

    /// Held while a test starts a process: Foundation's `Process.run` walks every descriptor this
    /// process has open (to close it in the child), and with a thousand open at once and many
    /// threads launching, the test process crashed now and then inside it (SIGSEGV in memcpy
    /// under `Process.run`). Launching is quick; waiting for the process is not held up.
    static let launching = NSLock()

    static func runBlocking(_ executable: String, _ arguments: [String], in directory: URL, stdin: Data?, environment: [String: String]) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = directory.path
        env["XDG_CACHE_HOME"] = directory.appendingPathComponent("xdg-cache").path
        env["XDG_DATA_HOME"] = directory.appendingPathComponent("xdg-data").path
        env.removeValue(forKey: "NARRATE_CACHE_DIR")
        // Dozens of these processes run at once on two cores in a full run, and an eSpeak child
        // may then wait seconds for a core or for its reader: a generous deadline, so that a
        // slow machine is not taken for a hung engine. The tests of the deadline set their own.
        env["NARRATE_ENGINE_TIMEOUT"] = "120"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let outputFile = directory.appendingPathComponent(".stdout-\(UUID().uuidString)")
        let errorFile = directory.appendingPathComponent(".stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outputFile)
            try? FileManager.default.removeItem(at: errorFile)
        }
        let output = try FileHandle(forWritingTo: outputFile)
        let errors = try FileHandle(forWritingTo: errorFile)
        defer {
            try? output.close()
            try? errors.close()
        }
        process.standardOutput = output
        process.standardError = errors
        let input = stdin == nil ? nil : Pipe()
        process.standardInput = input ?? FileHandle.nullDevice
        try launching.withLock { try process.run() }
        if let stdin, let input {
            input.fileHandleForWriting.write(stdin)
            try input.fileHandleForWriting.close()
        }
        process.waitUntilExit()
        return ProcessResult(
            status: process.terminationStatus,
            stdout: try Data(contentsOf: outputFile),
            stderr: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self)
        )
    }
}

/// A fresh folder per test, removed when the test ends.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes an executable script through a close-on-exec descriptor: a descriptor inherited
    /// by a process another test spawns at that moment would make running it fail (ETXTBSY).
    func writeExecutable(_ text: String, named name: String) throws -> String {
        let file = path(name)
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file]) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == bytes.count else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file]) }
        return file
    }

    /// Every file below the folder, relative paths.
    func allFiles() -> [String] {
        (FileManager.default.enumerator(atPath: url.path)?.allObjects as? [String]) ?? []
    }
}

/// A parsed WAV file (16-bit PCM).
struct WAVFile {
    var sampleRate: Int
    var channels: Int
    var bitsPerSample: Int
    /// The bytes of the `data` chunk.
    var data: Data

    init(_ bytes: Data) throws {
        let b = [UInt8](bytes)
        try #require(b.count >= 44 && String(decoding: b[0..<4], as: UTF8.self) == "RIFF" && String(decoding: b[8..<12], as: UTF8.self) == "WAVE", "not a WAV file")
        func u32(_ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 | Int(b[at + 3]) << 24 }
        func u16(_ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }
        var offset = 12
        var format: (Int, Int, Int)?
        var payload: Data?
        while offset + 8 <= b.count {
            let id = String(decoding: b[offset..<offset + 4], as: UTF8.self)
            var size = u32(offset + 4)
            if id == "fmt " { format = (u16(offset + 10), u32(offset + 12), u16(offset + 22)) }
            if id == "data" {
                if size == 0xFFFF_FFFF || offset + 8 + size > b.count { size = b.count - offset - 8 }
                payload = bytes.subdata(in: (offset + 8)..<(offset + 8 + size))
                break
            }
            offset += 8 + size + (size & 1)
        }
        let (channels, rate, bits) = try #require(format, "no fmt chunk")
        self.channels = channels
        self.sampleRate = rate
        self.bitsPerSample = bits
        self.data = try #require(payload, "no data chunk")
    }

    init(path: String) throws {
        try self.init(Data(contentsOf: URL(fileURLWithPath: path)))
    }

    var duration: Double { Double(data.count / 2) / Double(sampleRate) }
}

/// Whether two pieces of audio are byte for byte the same. A plain `#expect(a == b)` on large
/// `Data` makes Swift Testing compute a difference of megabytes on failure, which never ends.
func identical(_ first: Data, _ second: Data) -> Bool {
    first == second
}

/// Expects the WAV files `ours` and `reference` in `folder` to hold the same samples.
func expectSameSamples(_ ours: String, _ reference: String, in folder: TemporaryFolder, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let oursFile = try WAVFile(path: folder.path(ours))
    let referenceFile = try WAVFile(path: folder.path(reference))
    #expect(oursFile.data.count == referenceFile.data.count, sourceLocation: sourceLocation)
    #expect(identical(oursFile.data, referenceFile.data), sourceLocation: sourceLocation)
}
