import HTTPTypes
import Logging
import Testing
@testable import NarrateServer

/// The last guard before an error reaches a client: its detail goes to the log, escaped, and a
/// message that would name one of the server's folders is withheld.
@Suite struct ErrorDisclosureTests {
    let log = LogRecorder()
    let sut: ErrorDisclosure

    init() {
        sut = ErrorDisclosure(folders: ["/srv/narrate/cache/", "/tmp", "/", ""], logger: log.logger)
    }

    @Test("Given the server's folders, when a text is checked, then a folder or a file in one is found, and a longer name that merely starts alike is not", arguments: [
        ("Could not write /srv/narrate/cache/objects/ab", true), ("at /tmp.", true), ("in /tmp", true), ("see /tmp/x", true),
        ("a tmpfs at /tmpfs", false), ("/tmp.d/conf", false), ("GET /v1/audio/voices lists them", false), ("Unknown voice 'joe.onnx'.", false),
    ])
    func findsFolders(text: String, names: Bool) {
        #expect(sut.namesFolder(text) == names)
    }

    @Test("Given an error with a detail, when it is disclosed, then the client's copy has no detail and the log has it escaped")
    func detailGoesToTheLog() {
        // Given
        let error = APIError(.badRequest, "Unknown voice 'x'.", code: "voice_not_found", detail: "unknown voice '\u{1B}[2Jx\u{0}'")

        // When
        let told = sut.disclosed(error, context: "POST /v1/audio/speech")

        // Then
        #expect(told.detail == nil)
        #expect(told.message == "Unknown voice 'x'.")
        #expect(log.messages == ["notice POST /v1/audio/speech 400 voice_not_found: unknown voice '\\u{1B}[2Jx\\u{0}'"])
    }

    @Test("Given a message that names a server folder, when it is disclosed, then the client reads a general line and the log keeps the message")
    func folderIsWithheld() {
        // When
        let told = sut.disclosed(APIError(.internalServerError, "Could not write /srv/narrate/cache/objects/ab/x.tmp", code: "cache_failed"), context: "wyoming")

        // Then
        #expect(told.message == "The service failed on this request; its log says why.")
        #expect(told.code == "cache_failed")
        #expect(log.messages.count == 1)
        #expect(log.messages.first?.contains("/srv/narrate/cache/objects/ab/x.tmp") == true)
    }

    @Test("Given `/` and an empty folder among the server's, when they are kept, then neither is (every message would name them)")
    func rootIsNoFolder() {
        #expect(!sut.folders.contains("/"))
        #expect(!sut.folders.contains(""))
        #expect(sut.folders.contains("/srv/narrate/cache"))
    }
}
