import Foundation
import NarrateData
import NarrateDomain
import Testing

@Suite struct SubtitleFileWriterTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("SubtitleFileWriterTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String {
        folder.appendingPathComponent(name).path
    }

    func folderContents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    func removeFolder() {
        try? FileManager.default.removeItem(at: folder)
    }

    @Test("writes the text as UTF-8 and leaves no temporary file")
    func writes() throws {
        // Given
        defer { removeFolder() }
        let contents = "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n« Bonjour ! »\n"

        // When
        try SubtitleFileWriter.write(contents, to: path("book.vtt"))

        // Then
        #expect(try String(contentsOfFile: path("book.vtt"), encoding: .utf8) == contents)
        #expect(try folderContents() == ["book.vtt"])
    }

    @Test("replaces an existing file whole")
    func replaces() throws {
        // Given a longer file already there
        defer { removeFolder() }
        try String(repeating: "old ", count: 100).write(toFile: path("book.srt"), atomically: false, encoding: .utf8)

        // When
        try SubtitleFileWriter.write("new\n", to: path("book.srt"))

        // Then
        #expect(try String(contentsOfFile: path("book.srt"), encoding: .utf8) == "new\n")
        #expect(try folderContents() == ["book.srt"])
    }

    @Test("a missing folder is an outputFailed error naming the path")
    func missingFolder() throws {
        // Given
        defer { removeFolder() }
        let destination = path("missing/book.vtt")

        // When
        let error = #expect(throws: ExportError.self) {
            try SubtitleFileWriter.write("WEBVTT\n", to: destination)
        }

        // Then
        #expect(error == .outputFailed(OutputError(path: destination, cause: .missingFolder)))
        #expect(try folderContents().isEmpty)
    }

    @Test("when the rename fails (the destination is a folder) the temporary file is removed and the error says something is in the way")
    func failedRenameLeavesNoTemporaryFile() throws {
        // Given a folder where the file should go
        defer { removeFolder() }
        try FileManager.default.createDirectory(atPath: path("book.vtt"), withIntermediateDirectories: false)

        // When
        let error = #expect(throws: ExportError.self) {
            try SubtitleFileWriter.write("WEBVTT\n", to: path("book.vtt"))
        }

        // Then
        #expect(error == .outputFailed(OutputError(path: path("book.vtt"), cause: .alreadyExists)))
        #expect(try folderContents() == ["book.vtt"])
    }
}
