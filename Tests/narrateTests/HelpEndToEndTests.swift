import Foundation
import Testing

/// What the argument parser prints (help, version, completions) next to the one place where
/// a command's own failures are reported.
@Suite("Help and errors, end to end")
struct HelpEndToEndTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    private func narrate(_ arguments: [String]) async throws -> ProcessResult {
        try await NarrateProcess.narrate(arguments, in: folder.url, environment: ["NARRATE_LIBRARY": folder.path("library.sqlite")])
    }

    @Test("--help, help COMMAND and -h print help on standard output and succeed", arguments: [
        ["--help"], ["help"], ["help", "search"], ["search", "--help"], ["cache", "prune", "-h"], ["say", "--help"],
    ])
    func help(arguments: [String]) async throws {
        // When
        let result = try await narrate(arguments)

        // Then
        let output = String(decoding: result.stdout, as: UTF8.self)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(output.contains("USAGE: narrate"), "\(output)")
        #expect(!result.stderr.contains("narrate: error"), "\(result.stderr)")
    }

    @Test("--version prints the version")
    func version() async throws {
        // When
        let result = try await narrate(["--version"])

        // Then
        #expect(result.status == 0)
        #expect(String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
    }

    @Test("Completion scripts are generated for bash, zsh and fish, and name the commands", arguments: ["bash", "zsh", "fish"])
    func completions(shell: String) async throws {
        // When
        let result = try await narrate(["--generate-completion-script", shell])

        // Then
        let script = String(decoding: result.stdout, as: UTF8.self)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(script.contains("search") && script.contains("words-per-page"))
    }

    @Test("bash completion offers exactly the commands help lists, nothing hidden")
    func completionCommands() async throws {
        // When
        let script = String(decoding: try await narrate(["--generate-completion-script", "bash"]).stdout, as: UTF8.self)

        // Then
        #expect(script.contains("compgen -W 'say page next book pages text cast add list show search toc bookmarks remove voices phonemes cache serve help'"), "\(script.prefix(2_000))")
    }

    @Test("A usage error prints the parser's message and usage, exit 64")
    func usageError() async throws {
        // When
        let result = try await narrate(["say", "Hello", "--rate", "900"])

        // Then
        #expect(result.status == 64)
        #expect(result.stderr.contains("Error: --rate must be from 80 to 450 (got 900)."))
        #expect(result.stderr.contains("Usage: narrate say"))
    }

    @Test("A command's failure is one line, exit 1", arguments: [["show", "99"], ["text", "missing.epub"], ["voices", "--language", "xx-nowhere"]])
    func commandFailure(arguments: [String]) async throws {
        // When
        let result = try await narrate(arguments)

        // Then
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("narrate: error: ") == true, "\(result.stderr)")
    }
}
