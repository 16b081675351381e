import Foundation
import Glibc
import Testing

@testable import NarrateData

@Suite("In-kernel file copies")
struct FileCopyTests {
    let folder: TemporaryDirectory
    let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }

    init() throws {
        folder = try TemporaryDirectory()
    }

    @Test("A range of a file is appended at a file's position, after what was written before")
    func appendsRangeToFile() throws {
        // Given
        let source = folder.path + "/source"
        try Data(bytes).write(to: URL(fileURLWithPath: source))
        let destination = open(folder.path + "/out", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(destination) }
        _ = write(destination, "HEAD", 4)

        // When
        try FileCopy.append(from: source, offset: 1_000, count: 250_000, to: destination, destinationName: "out")

        // Then
        let written = try #require(FileManager.default.contents(atPath: folder.path + "/out"))
        #expect(Array(written) == Array("HEAD".utf8) + Array(bytes[1_000..<251_000]))
    }

    @Test("Through a pipe, where the kernel cannot copy, it reads and writes instead")
    func fallsBackOnPipe() async throws {
        // Given
        let source = folder.path + "/source"
        try Data(bytes).write(to: URL(fileURLWithPath: source))
        let pipe = Pipe()
        let reader = Task.detached { pipe.fileHandleForReading.readDataToEndOfFile() }

        // When
        try FileCopy.append(from: source, offset: 10, count: 200_000, to: pipe.fileHandleForWriting.fileDescriptor, destinationName: "pipe")
        try pipe.fileHandleForWriting.close()

        // Then
        #expect(Array(await reader.value) == Array(bytes[10..<200_010]))
    }

    @Test("A source shorter than the range is an error, not a short file")
    func shortSourceFails() throws {
        let source = folder.path + "/source"
        try Data(bytes.prefix(100)).write(to: URL(fileURLWithPath: source))
        let destination = open(folder.path + "/out", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(destination) }
        #expect(throws: SystemCallError.self) { try FileCopy.append(from: source, offset: 0, count: 200, to: destination, destinationName: "out") }
    }
}
