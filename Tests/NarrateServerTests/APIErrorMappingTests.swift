import Hummingbird
import NarrateDomain
import NarrateKit
import Testing

@testable import NarrateServer

/// The service's words for the library's errors: status, OpenAI type, parameter, code and
/// message of each case, without a server. The messages are the service's answers as they were
/// when the service still rewrote the library's text, except that none names a file or folder
/// of the server: those go to the log (`detail`) alone.
@Suite("API errors from library errors")
struct APIErrorMappingTests {
    /// One expected answer.
    struct Expected: Sendable, CustomTestStringConvertible {
        var status: Int
        var type: String
        var param: String?
        var code: String?
        var message: String
        var retryAfter: Int? = nil

        var testDescription: String { "\(status) \(code ?? "-")" }
    }

    static let upload = "/var/lib/narrate/uploads/" + String(repeating: "0123456789abcdef", count: 4) + ".epub"

    static let speechCases: [(SpeechError, Expected)] = [
        (.emptyText, Expected(status: 400, type: "invalid_request_error", param: "input", code: "empty_input", message: "There is no text to speak.")),
        (.voiceNotFound("xx", suggestions: []), Expected(
            status: 400, type: "invalid_request_error", param: "voice", code: "voice_not_found",
            message: "Unknown voice 'xx'. GET /v1/audio/voices lists them.")),
        (.voiceNotFound("en-uss", suggestions: ["en-us", "en-gb"]), Expected(
            status: 400, type: "invalid_request_error", param: "voice", code: "voice_not_found",
            message: "Unknown voice 'en-uss'. Did you mean en-us, en-gb? GET /v1/audio/voices lists them.")),
        (.speedOutOfRange(speed: 4.0, usable: 0.46...2.57, rate: 175), Expected(
            status: 400, type: "invalid_request_error", param: "speed", code: "speed_out_of_range",
            message: "speed 4.0 is more than eSpeak can do with this voice: use 0.46 to 2.57 (1.0 is 175 words per minute).")),
        (.parameterOutOfRange(name: "rate", value: 900, range: 80...450), Expected(
            status: 400, type: "invalid_request_error", param: "input", code: "input_out_of_bounds",
            message: "The rate 900 is out of range: use a value from 80 to 450.")),
        (.audioTooLong(limitSeconds: 1200), Expected(
            status: 400, type: "invalid_request_error", param: "input", code: "input_out_of_bounds",
            message: "The audio of one text would last longer than 20 minutes, the most one utterance may; nothing was written. Shorten the text or its pauses.")),
        (.pauseTooLong(seconds: 90, limitSeconds: 60), Expected(
            status: 400, type: "invalid_request_error", param: "input", code: "input_out_of_bounds",
            message: "An SSML <break> asks for a pause of 90 seconds; one pause may last 60 seconds at most. Nothing was synthesized.")),
        (.textTooLong(estimatedHours: 30.25, limitHours: 24), Expected(
            status: 400, type: "invalid_request_error", param: "input", code: "input_out_of_bounds",
            message: "This text would give about 30.3 hours of audio, more than the 24 hours one run may make. Nothing was synthesized; split the text, or add it as a book and export it (narrate add, narrate book).")),
        (.engineUnavailable(reason: "no espeak-ng-data"), Expected(
            status: 503, type: "server_error", param: nil, code: "engine_unavailable",
            message: "Synthesis is unavailable: the speech engine cannot run, and this text is not in the cache; the service's log says why. Try again later.", retryAfter: 5)),
        (.voiceFailed(voice: "en_US-joe-medium", reason: "its configuration /srv/voices/en_US-joe-medium.onnx.json is missing"), Expected(
            status: 503, type: "server_error", param: nil, code: "voice_unavailable",
            message: "The voice 'en_US-joe-medium' is installed but cannot speak now; the service's log says why. Choose another voice (GET /v1/audio/voices lists them).")),
        (.synthesisFailed(code: 2, voice: "en", textLength: 40), Expected(
            status: 500, type: "server_error", param: nil, code: "synthesis_failed",
            message: "eSpeak NG failed (error 2) on a text of 40 characters with voice 'en'.; the worker was replaced, other requests are not affected.")),
        (.engineFailed(reason: "crashed", text: "Hello\nworld"), Expected(
            status: 500, type: "server_error", param: nil, code: "synthesis_failed",
            message: "eSpeak NG crashed on \u{201C}Hello world\u{201D}; the worker was replaced, other requests are not affected.")),
        (.cacheFailed(.writeFailed(path: "/c/objects", reason: "No space left on device")), Expected(
            status: 500, type: "server_error", param: nil, code: "cache_failed",
            message: "The service could not store or read the audio; its log says why.")),
        (.outputFailed(OutputError(path: "/r/x.mp3", cause: .noSpace)), Expected(
            status: 500, type: "server_error", param: nil, code: "cache_failed",
            message: "The service could not store or read the audio; its log says why.")),
        (.remoteUnavailable(host: "api.example.com", attempts: 1, reason: "the connection was refused"), Expected(
            status: 502, type: "server_error", param: nil, code: "upstream_unavailable",
            message: "The speech API at api.example.com could not deliver after 1 attempt (the connection was refused). Try again later, or add --fallback espeak to speak such text with eSpeak NG.",
            retryAfter: 5)),
        (.characterLimitReached(limit: 500, sent: 480, needed: 60), Expected(
            status: 429, type: "rate_limit_error", param: nil, code: "character_limit_reached",
            message: "Sending 60 more characters to the speech API would pass --max-characters 500 (480 sent in this run); nothing past the cap was sent. Raise --max-characters to go on: audio already in the cache costs nothing.")),
        (.remoteUnsupported("read SSML"), Expected(
            status: 400, type: "invalid_request_error", param: "input", code: "unsupported_by_upstream",
            message: "The remote speech engine cannot read SSML; drop --remote to use eSpeak NG for it.")),
    ]

    /// One refusal of each kind; their words (the options to check) are `RemoteRefusal.withRemedy`,
    /// which the CLI's tests check line by line.
    static let refusals: [RemoteRefusal] = [
        .keyFileUnreadable(path: "/k"), .keyFileEmpty(path: "/k"), .notAnAPIBase(url: "ftp://x"), .emptyModelOrVoice, .requestNotEncodable,
        .keyRejected(apiSays: "Incorrect API key provided"), .keyNotPermitted(apiSays: nil), .notFound(apiSays: nil),
        .requestRejected(apiSays: "no such voice"), .refused(apiSays: nil), .notAudio(contentType: "text/html"),
        .audioTooLarge(bytes: 70_000_000, limitBytes: 64 << 20),
    ]

    @Test("Given an upstream refusal, when the service answers it, then it is a 502 upstream_refused with the options to check", arguments: refusals)
    func upstreamRefusal(refusal: RemoteRefusal) {
        Self.expect(APIError(SpeechError.remoteRefused(status: 401, reason: refusal)), Expected(status: 502, type: "server_error", param: nil, code: "upstream_refused", message: refusal.line(status: 401)))
    }

    static let bookCases: [(BookError, Expected)] = [
        (.bookNotFound(reference: "42"), Expected(
            status: 404, type: "not_found_error", param: nil, code: "not_found",
            message: "No book has the id '42'; GET /v1/books lists the library.")),
        (.fileNotFound(path: "/books/emma.epub"), Expected(
            status: 404, type: "not_found_error", param: nil, code: "not_found",
            message: "The book's file is no longer where it was added from; the service's log says where. Add the book again.")),
        (.pageNotFound(page: "40", pageCount: 31), Expected(
            status: 404, type: "not_found_error", param: nil, code: "page_not_found", message: "There is no page 40: the book has 31 pages (1–31).")),
        (.endOfBook(title: "Emma", pageCount: 1), Expected(
            status: 404, type: "not_found_error", param: nil, code: "page_not_found",
            message: "'Emma' is read to the end (page 1 of 1). Narrate a page by number, or start over from the first page.")),
        (.libraryFailed(reason: "disk I/O error"), Expected(
            status: 500, type: "server_error", param: nil, code: "library_failed",
            message: "The book library could not be used; the service's log says why.")),
        (.ambiguousBook(reference: "Em", matches: ["1 Emma", "2 Emmeline"]), Expected(
            status: 400, type: "invalid_request_error", param: nil, code: nil,
            message: "'Em' matches several books: 1 Emma; 2 Emmeline. Use the library id or a longer title.")),
        (.unreadable(path: upload, reason: "it is a folder, not a file"), unreadable("Could not read The uploaded file: it is a folder, not a file.")),
        (.unsupportedFormat(path: upload), unreadable("The uploaded file is not a format Narrate reads. Use an .epub, .pdf, .docx, .odt, .fb2, .txt, .html or .md file.")),
        (.passwordRequired(path: upload, given: false), Expected(
            status: 422, type: "invalid_request_error", param: nil, code: "encrypted_book",
            message: "The uploaded file is encrypted: its text needs the document's user password. Give the password, or remove it with the program that made the file (qpdf --decrypt).")),
        (.noTextLayer(path: upload, imagePages: 2, pageCount: 2), Expected(
            status: 422, type: "invalid_request_error", param: nil, code: "no_text_layer",
            message: "The uploaded file has no text to read: all its 2 pages are images without a text layer (a scan). Add a text layer with OCR first (for instance 'ocrmypdf in.pdf out.pdf') and add that file.")),
        (.noText(path: upload), unreadable("The uploaded file has no text to read.")),
        (.emptyFile(path: upload), unreadable("The uploaded file is empty (0 bytes). Copy or download the book again.")),
        (.notAZipArchive(path: upload), unreadable(
            "The uploaded file is not a readable EPUB: it is not a ZIP archive, or it is truncated (no central directory). Download or export the book again.")),
        (.wrongMimetype(path: upload, found: "text/plain"), unreadable(
            "The uploaded file is not an EPUB: its 'mimetype' entry says 'text/plain' instead of 'application/epub+zip'. Export the book again as EPUB.")),
        (.missingContainer(path: upload), unreadable(
            "The uploaded file is a damaged EPUB: it has no META-INF/container.xml, so its content cannot be found. Repair it (e.g. with Sigil or Calibre) or export it again.")),
        (.missingPackageDocument(path: upload, packagePath: "OEBPS/content.opf"), unreadable(
            "The uploaded file is a damaged EPUB: its container.xml points to the package document 'OEBPS/content.opf', which is not in the archive. Repair it or export it again.")),
        (.malformedXML(path: upload, entry: "OEBPS/ch1.xhtml", reason: "line 3: unclosed tag"), unreadable(
            "The uploaded file is a damaged EPUB: 'OEBPS/ch1.xhtml' is not well-formed XML (line 3: unclosed tag). Repair that file (e.g. with Sigil) or export the book again.")),
        (.missingSpine(path: upload), unreadable(
            "The uploaded file is a damaged EPUB: its package document has no <spine>, so the reading order is unknown. Repair it or export the book again.")),
        (.spineItemNotInManifest(path: upload, idref: "ch9"), unreadable(
            "The uploaded file is a damaged EPUB: its spine lists 'ch9', which the manifest does not declare. Repair it or export the book again.")),
        (.unsafeEntryPath(path: upload, entry: "../etc/passwd"), unreadable(
            "The uploaded file was refused: its entry or reference '../etc/passwd' points outside the book (absolute path or '../'). Only open books from a source you trust.")),
        (.duplicateEntry(path: upload, entry: "mimetype"), unreadable(
            "The uploaded file was refused: the entry 'mimetype' appears more than once in the archive, so which one to read is ambiguous. Export the book again.")),
        (.entryTooLarge(path: upload, entry: "OEBPS/big.xhtml", limit: 64 << 20), unreadable(
            "The uploaded file was refused: the entry 'OEBPS/big.xhtml' unpacks to more than 64 MiB (a possible ZIP bomb). Check where the file comes from.")),
        (.archiveTooLarge(path: upload, limit: 512 << 20), unreadable(
            "The uploaded file was refused: its entries unpack to more than 512 MiB in all (a possible ZIP bomb). Check where the file comes from.")),
        (.damagedEntry(path: upload, entry: "OEBPS/ch1.xhtml", reason: "checksum mismatch"), unreadable(
            "The uploaded file is damaged: the entry 'OEBPS/ch1.xhtml' cannot be read (checksum mismatch). Download or export the book again.")),
        // A book file added on the server is not named by its path either.
        (.notAZipArchive(path: "/books/emma.epub"), unreadable(
            "The book's file is not a readable EPUB: it is not a ZIP archive, or it is truncated (no central directory). Download or export the book again.")),
    ]

    static func unreadable(_ message: String) -> Expected {
        Expected(status: 422, type: "invalid_request_error", param: nil, code: "unreadable_book", message: message)
    }

    @Test("Given a speech error, when the service answers it, then status, type, parameter, code and message are the service's", arguments: speechCases)
    func speechError(error: SpeechError, expected: Expected) {
        // When
        let answer = APIError(error)

        // Then
        Self.expect(answer, expected)
        #expect(SpeechBackend.apiError(error).message == answer.message)
        #expect(!Self.namesServerFile(answer.message))
    }

    @Test("Given a library error, when the service answers it, then status, type, parameter, code and message are the service's", arguments: bookCases)
    func bookError(error: BookError, expected: Expected) {
        // When
        let answer = APIError(error)

        // Then
        Self.expect(answer, expected)
        #expect(LibraryController.apiError(error).message == answer.message)
        #expect(!answer.message.contains("uploads/"))
        #expect(!answer.message.contains("narrate list"))
        #expect(!Self.namesServerFile(answer.message))
    }

    @Test("Given an error that names the server's files, when the service answers it, then the full cause is its detail, for the log alone", arguments: [
        SpeechError.voiceFailed(voice: "joe", reason: "its model /srv/voices/joe.onnx does not exist"),
        .cacheFailed(.writeFailed(path: "/c/objects", reason: "No space left on device")),
        .engineUnavailable(reason: "could not start /opt/narrate/narrate-worker: not found"),
    ])
    func detailKeepsTheCause(error: SpeechError) {
        // When
        let answer = APIError(error)

        // Then
        #expect(answer.detail == error.description)
        #expect(!Self.namesServerFile(answer.message))
    }

    /// Whether `message` holds one of the server paths these cases use.
    static func namesServerFile(_ message: String) -> Bool {
        ["/c/", "/r/", "/srv/", "/opt/", "/books/", "/var/lib"].contains { message.contains($0) }
    }

    static let hash = String(repeating: "a", count: 64)
    static let paths: [(String, Bool)] = [
        (upload, true),
        ("uploads/\(hash).txt", true),
        ("/srv/uploads/\(hash.dropLast()).txt", false),
        ("/srv/uploads/\(hash.uppercased()).txt", false),
        ("/srv/uploads/\(hash).tar.gz", false),
        ("/srv/uploads/\(hash)", false),
        ("/srv/books/\(hash).epub", false),
        ("/books/emma.epub", false),
    ]

    @Test("Given paths, when asked whether each is an upload, then only <folder>/uploads/<sha256>.<extension> is", arguments: paths)
    func uploadPaths(path: String, isUpload: Bool) {
        #expect(APIError.isUpload(path) == isUpload)
    }

    private static func expect(_ answer: APIError, _ expected: Expected, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(Int(answer.status.code) == expected.status, sourceLocation: sourceLocation)
        #expect(answer.type == expected.type, sourceLocation: sourceLocation)
        #expect(answer.param == expected.param, sourceLocation: sourceLocation)
        #expect(answer.code == expected.code, sourceLocation: sourceLocation)
        #expect(answer.message == expected.message, sourceLocation: sourceLocation)
        #expect(answer.retryAfter == expected.retryAfter, sourceLocation: sourceLocation)
    }
}
