import Foundation
import Logging
import Testing

@testable import NarrateKit

/// Where Narrate keeps its files when nobody says: the XDG folders, overridable by environment.
@Suite struct NarrateConfigurationTests {
    @Test("The cache defaults to $XDG_CACHE_HOME/narrate, else ~/.cache/narrate; NARRATE_CACHE_DIR wins")
    func cacheDirectory() {
        #expect(NarrateConfiguration.defaultCacheDirectory(environment: ["HOME": "/home/ann"]) == "/home/ann/.cache/narrate")
        #expect(NarrateConfiguration.defaultCacheDirectory(environment: ["HOME": "/home/ann", "XDG_CACHE_HOME": "/xdg"]) == "/xdg/narrate")
        #expect(NarrateConfiguration.defaultCacheDirectory(environment: ["HOME": "/home/ann", "XDG_CACHE_HOME": "/xdg", "NARRATE_CACHE_DIR": "/mine"]) == "/mine")
        #expect(NarrateConfiguration.defaultCacheDirectory(environment: ["HOME": "/home/ann", "XDG_CACHE_HOME": ""]) == "/home/ann/.cache/narrate")
    }

    @Test("The library defaults to $XDG_DATA_HOME/narrate/library.sqlite, else ~/.local/share; NARRATE_LIBRARY wins")
    func libraryPath() {
        #expect(NarrateConfiguration.defaultLibraryPath(environment: ["HOME": "/home/ann"]) == "/home/ann/.local/share/narrate/library.sqlite")
        #expect(NarrateConfiguration.defaultLibraryPath(environment: ["HOME": "/home/ann", "XDG_DATA_HOME": "/data"]) == "/data/narrate/library.sqlite")
        #expect(NarrateConfiguration.defaultLibraryPath(environment: ["NARRATE_LIBRARY": "/books.sqlite"]) == "/books.sqlite")
    }

    @Test("Voices come from NARRATE_VOICES_DIR, the checkout's voices/ folder, the data folder, then /usr/local/share")
    func voiceDirectories() throws {
        // Given a checkout-like tree: <root>/voices/README.md and <root>/.build/<triple>/debug/narrate
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-kit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let binaryFolder = root.appendingPathComponent(".build/x86_64-unknown-linux-gnu/debug")
        try FileManager.default.createDirectory(at: binaryFolder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("voices"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: root.appendingPathComponent("voices/README.md").path, contents: Data())

        // When
        let directories = NarrateConfiguration.defaultVoiceDirectories(
            environment: ["HOME": "/home/ann", "NARRATE_VOICES_DIR": "/presets"],
            executablePath: binaryFolder.appendingPathComponent("narrate").path
        )

        // Then
        #expect(directories == ["/presets", root.appendingPathComponent("voices").resolvingSymlinksInPath().path, "/home/ann/.local/share/narrate/voices", "/usr/local/share/narrate/voices"])
    }

    @Test("Without a checkout, the data folder's and the system's voices are searched")
    func voiceDirectoriesOutsideACheckout() {
        let directories = NarrateConfiguration.defaultVoiceDirectories(environment: ["HOME": "/home/ann"], executablePath: "/usr/local/bin/narrate")
        #expect(directories == ["/home/ann/.local/share/narrate/voices", "/usr/local/share/narrate/voices"])
    }

    @Test("Exporting without a cache is refused with the way out")
    func exportNeedsTheCache() async {
        // Given
        let configuration = NarrateConfiguration(cacheDirectory: nil, voiceDirectories: [], libraryPath: "/tmp/unused.sqlite")

        // When / Then
        await #expect(throws: ExportError.self) {
            _ = try await makeExportBookUseCase(configuration: configuration, jobs: 1, logger: .init(label: "test"))
        }
    }
}
