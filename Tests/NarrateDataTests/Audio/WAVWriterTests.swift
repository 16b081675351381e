import Foundation
import Glibc
import NarrateDomain
import Testing

@testable import NarrateData

@Suite struct WAVWriterTests {
    private let folder: ScratchFolder
    private let destination: String

    init() throws {
        folder = try ScratchFolder()
        destination = folder.path + "/out.wav"
    }

    @Test("A finished file has a canonical 44-byte header (RIFF and data sizes, 22050 Hz, mono, 16-bit) and the samples")
    func writesHeaderAndSamples() throws {
        // Given
        let samples: [Int16] = [0, 1, -1, Int16.max, Int16.min, 1_234]
        let sut = try WAVWriter(path: destination)

        // When
        try sut.append(SpeechAudio(sampleRate: 22_050, samples: samples))
        try sut.finish()

        // Then
        let wav = try WAVFile(path: destination)
        #expect(wav.size == 44 + 12)
        #expect(wav.tag(at: 0) == "RIFF")
        #expect(wav.uint32(at: 4) == 36 + 12)
        #expect(wav.tag(at: 8) == "WAVE")
        #expect(wav.tag(at: 12) == "fmt ")
        #expect(wav.uint32(at: 16) == 16)
        #expect(wav.uint16(at: 20) == 1, "PCM")
        #expect(wav.uint16(at: 22) == 1, "mono")
        #expect(wav.uint32(at: 24) == 22_050)
        #expect(wav.uint32(at: 28) == 44_100, "byte rate")
        #expect(wav.uint16(at: 32) == 2, "block align")
        #expect(wav.uint16(at: 34) == 16, "bits per sample")
        #expect(wav.tag(at: 36) == "data")
        #expect(wav.uint32(at: 40) == 12)
        #expect(wav.samples == samples)
    }

    @Test("Nothing is at the destination until finish(); the file is written beside it under a temporary name")
    func noFileUntilFinish() throws {
        // Given
        let sut = try WAVWriter(path: destination)

        // When
        try sut.append(SpeechAudio(sampleRate: 22_050, samples: [1, 2, 3]))

        // Then
        #expect(!FileManager.default.fileExists(atPath: destination))
        #expect(try folder.contents().count == 1)
        #expect(try folder.contents().allSatisfy { $0.hasPrefix(".out.wav.narrate-tmp-") })

        // When
        try sut.finish()

        // Then
        #expect(FileManager.default.fileExists(atPath: destination))
        #expect(try folder.contents() == ["out.wav"])
    }

    @Test("discard() leaves no file and no temporary file, and keeps an existing destination")
    func discardLeavesNothing() throws {
        // Given
        try Data("old".utf8).write(to: URL(fileURLWithPath: destination))
        let sut = try WAVWriter(path: destination)
        try sut.append(SpeechAudio(sampleRate: 22_050, samples: [1, 2, 3]))

        // When
        sut.discard()

        // Then
        #expect(try folder.contents() == ["out.wav"])
        #expect(FileManager.default.contents(atPath: destination) == Data("old".utf8))
    }

    @Test("A writer released without finish() removes its temporary file")
    func releaseWithoutFinishLeavesNothing() throws {
        // Given
        do {
            let sut = try WAVWriter(path: destination)
            try sut.append(SpeechAudio(sampleRate: 22_050, samples: [1, 2, 3]))
        }

        // Then
        #expect(try folder.contents().isEmpty)
    }

    @Test("A missing folder throws outputFailed naming the path")
    func missingFolderThrows() throws {
        // Given
        let path = folder.path + "/missing/out.wav"

        // When / Then
        #expect(throws: SpeechError.outputFailed(OutputError(path: path, cause: .missingFolder))) {
            _ = try WAVWriter(path: path)
        }
    }

    @Test("Two appends are concatenated and the sizes count both")
    func appendsConcatenate() throws {
        // Given
        let sut = try WAVWriter(path: destination)

        // When
        try sut.append(SpeechAudio(sampleRate: 22_050, samples: [1, 2, 3]))
        try sut.append(SpeechAudio(sampleRate: 22_050, samples: [4, 5]))
        try sut.finish()

        // Then
        let wav = try WAVFile(path: destination)
        #expect(wav.samples == [1, 2, 3, 4, 5])
        #expect(wav.uint32(at: 40) == 10)
        #expect(wav.uint32(at: 4) == 46)
    }

    @Test("The first audio fixes the sample rate")
    func firstAudioFixesRate() throws {
        // Given
        let sut = try WAVWriter(path: destination)

        // When
        try sut.append(SpeechAudio(sampleRate: 16_000, samples: [7]))
        try sut.finish()

        // Then
        let wav = try WAVFile(path: destination)
        #expect(wav.uint32(at: 24) == 16_000)
        #expect(wav.uint32(at: 28) == 32_000)
    }

    @Test("Audio at another sample rate cannot follow: outputFailed naming both rates")
    func mismatchedRatesThrow() throws {
        // Given
        let sut = try WAVWriter(path: destination)
        try sut.append(SpeechAudio(sampleRate: 22_050, samples: [1]))

        // When
        let error = #expect(throws: SpeechError.self) {
            try sut.append(SpeechAudio(sampleRate: 16_000, samples: [2]))
        }

        // Then
        guard case let .outputFailed(output) = error, case let .other(reason) = output.cause else {
            Issue.record("expected outputFailed, got \(String(describing: error))")
            return
        }
        #expect(output.path == destination)
        #expect(reason.contains("16000") && reason.contains("22050"))
        sut.discard()
    }

    @Test("finish() without audio writes an empty file at the default rate")
    func finishWithoutAudio() throws {
        // Given
        let sut = try WAVWriter(path: destination)

        // When
        try sut.finish()

        // Then
        let wav = try WAVFile(path: destination)
        #expect(wav.size == 44)
        #expect(wav.uint32(at: 4) == 36)
        #expect(wav.uint32(at: 24) == 22_050)
        #expect(wav.uint32(at: 40) == 0)
    }

    // MARK: - Full disk

    @Test("On a full disk, append throws outputFailed saying so, and after discard() no file remains")
    func fullDiskDuringAppend() throws {
        // Given
        guard let disk = TmpfsMount.make(size: "256k") else { return }
        let path = disk.path + "/out.wav"
        let sut = try WAVWriter(path: path)

        // When: 400 kB of samples into 256 kB
        let error = #expect(throws: SpeechError.self) {
            try sut.append(SpeechAudio(sampleRate: 22_050, samples: Array(repeating: 1, count: 200_000)))
        }

        // Then
        #expect(error == .outputFailed(OutputError(path: path, cause: .noSpace)))
        #expect(error?.description == "Could not write '\(path)': the disk is full; nothing was written. Free some space, then try again.")
        #expect(!FileManager.default.fileExists(atPath: path))

        // When
        sut.discard()

        // Then
        #expect(try disk.contents().isEmpty)
    }

    @Test("On a full disk, a writer released after a failed append leaves no file")
    func fullDiskThenRelease() throws {
        // Given
        guard let disk = TmpfsMount.make(size: "256k") else { return }

        // When
        do {
            let sut = try WAVWriter(path: disk.path + "/out.wav")
            #expect(throws: SpeechError.self) {
                try sut.append(SpeechAudio(sampleRate: 22_050, samples: Array(repeating: 1, count: 200_000)))
            }
        }

        // Then
        #expect(try disk.contents().isEmpty)
    }

    @Test("On a full disk, a finish() without audio throws, and after discard() no temporary file remains")
    func fullDiskDuringFinishWithoutAudio() throws {
        // Given: a disk with no room left even for the header
        guard let disk = TmpfsMount.make(size: "256k") else { return }
        try disk.fill(name: "filler")
        let path = disk.path + "/out.wav"
        let sut = try WAVWriter(path: path)

        // When
        let error = #expect(throws: SpeechError.self) {
            try sut.finish()
        }
        sut.discard()

        // Then
        #expect(error == .outputFailed(OutputError(path: path, cause: .noSpace)))
        #expect(!FileManager.default.fileExists(atPath: path))
        let remaining = try disk.contents()
        #expect(remaining == ["filler"])
    }
}

// MARK: - Helpers

/// A parsed WAV file.
private struct WAVFile {
    let bytes: [UInt8]

    init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CocoaError(.fileReadNoSuchFile)
        }
        bytes = Array(data)
    }

    var size: Int { bytes.count }

    func tag(at offset: Int) -> String {
        String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
    }

    func uint16(at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    func uint32(at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    var samples: [Int16] {
        stride(from: 44, to: bytes.count - 1, by: 2).map { Int16(bitPattern: uint16(at: $0)) }
    }
}

/// A fresh folder, removed with its contents when released.
private final class ScratchFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-wav-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }
}

/// A small tmpfs mounted on a fresh folder (needs root), unmounted when released.
private final class TmpfsMount {
    let path: String

    private init(path: String) {
        self.path = path
    }

    /// The mount, or `nil` after recording an issue when it cannot be made.
    static func make(size: String, sourceLocation: SourceLocation = #_sourceLocation) -> TmpfsMount? {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-full-\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            let status = try run(["mount", "-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path])
            guard status == 0 else {
                try? FileManager.default.removeItem(atPath: path)
                Issue.record("Could not mount a tmpfs at \(path) (mount exited \(status); are we root?): the full-disk case was not tested", sourceLocation: sourceLocation)
                return nil
            }
        } catch {
            Issue.record("Could not mount a tmpfs at \(path): \(error)", sourceLocation: sourceLocation)
            return nil
        }
        return TmpfsMount(path: path)
    }

    deinit {
        _ = try? Self.run(["umount", "--lazy", path])  // lazy: a leaked descriptor must not keep it mounted
        try? FileManager.default.removeItem(atPath: path)
    }

    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    /// Writes zeros to `name` until the disk is full.
    func fill(name: String) throws {
        let fd = open(path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        let block = [UInt8](repeating: 0, count: 4_096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
    }

    private static func run(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
