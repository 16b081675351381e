import Foundation
import Testing

/// The README's library examples are one program that is built with the package and run here,
/// so they cannot rot.
@Suite("README examples")
struct ReadmeExamplesTests {
    static let examplesFile = NarrateProcess.packageRoot.appendingPathComponent("Examples/ReadmeExamples/main.swift")

    /// The ```swift blocks of the README's "The library" section.
    static func readmeBlocks() throws -> [String] {
        let readme = try String(contentsOf: NarrateProcess.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## The library\n"))
        let sectionEnd = readme.range(of: "\n## ", range: section.upperBound..<readme.endIndex)?.lowerBound ?? readme.endIndex
        var blocks: [String] = []
        var rest = readme[section.upperBound..<sectionEnd]
        while let open = rest.range(of: "```swift\n") {
            let close = try #require(rest.range(of: "```", range: open.upperBound..<rest.endIndex))
            blocks.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return blocks
    }

    @Test("The README shows exactly Examples/ReadmeExamples/main.swift, block after block")
    func readmeMatchesTheProgram() throws {
        // Given / When
        let blocks = try Self.readmeBlocks()
        let program = try String(contentsOf: Self.examplesFile, encoding: .utf8)

        // Then
        #expect(blocks.count == 3)
        #expect(blocks.joined(separator: "\n") == program)
    }

    @Test("The examples run: a French sentence, page 1 of Moby-Dick, and two of its chapters as MP3")
    func examplesRun() async throws {
        // Given a folder with the book, and the examples program built beside narrate
        let folder = try TemporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: folder.path("moby-dick.epub"), withDestinationPath: try NarrateProcess.corpusFile("epub/moby-dick.epub"))
        let program = URL(fileURLWithPath: NarrateProcess.binary).deletingLastPathComponent().appendingPathComponent("narrate-readme-examples").path
        try #require(FileManager.default.isExecutableFile(atPath: program), "\(program) is not built")

        // When
        let result = try await NarrateProcess.run(program, [], in: folder.url, environment: [
            "NARRATE_LIBRARY": folder.path("library.sqlite"), "NARRATE_CACHE_DIR": folder.path("cache"),
        ])

        // Then
        #expect(result.status == 0, "\(result.stderr)")
        let output = String(decoding: result.stdout, as: UTF8.self)
        #expect(output.contains("page 1 of 'Moby-Dick'"), "\(output)")
        for file in ["bonjour.wav", "page1.wav", "moby/manifest.json"] {
            #expect(FileManager.default.fileExists(atPath: folder.path(file)), "\(file)")
        }
        let mp3s = try FileManager.default.contentsOfDirectory(atPath: folder.path("moby")).filter { $0.hasSuffix(".mp3") }
        #expect(mp3s.count == 2, "\(mp3s)")
    }
}
