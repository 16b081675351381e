import NarrateDomain
import Testing

/// The library's own words for its errors: what happened and what to do, in terms that fit any
/// front end. The CLI and the service name their commands, options and routes themselves.
@Suite("Error descriptions")
struct ErrorDescriptionTests {
    static let errors: [any Error & CustomStringConvertible] = [
        SpeechError.emptyText,
        SpeechError.voiceNotFound("xx", suggestions: []),
        SpeechError.voiceNotFound("en-uss", suggestions: ["en-us"]),
        SpeechError.parameterOutOfRange(name: "rate", value: 900, range: 80...450),
        SpeechError.engineUnavailable(reason: "no data"),
        SpeechError.synthesisFailed(code: 2, voice: "en", textLength: 40),
        SpeechError.engineFailed(reason: "crashed", text: "Hello"),
        SpeechError.audioTooLong(limitSeconds: 1200),
        SpeechError.pauseTooLong(seconds: 90, limitSeconds: 60),
        SpeechError.textTooLong(estimatedHours: 30, limitHours: 24),
        SpeechError.cacheFailed(.disabled),
        SpeechError.outputFailed(OutputError(path: "out.wav", cause: .noSpace)),
        SpeechError.remoteRefused(status: 0, reason: .keyFileUnreadable(path: "/k")),
        SpeechError.remoteRefused(status: 0, reason: .keyFileEmpty(path: "/k")),
        SpeechError.remoteRefused(status: 0, reason: .notAnAPIBase(url: "ftp://x")),
        SpeechError.remoteRefused(status: 0, reason: .emptyModelOrVoice),
        SpeechError.remoteRefused(status: 0, reason: .requestNotEncodable),
        SpeechError.remoteRefused(status: 401, reason: .keyRejected(apiSays: "Incorrect API key provided")),
        SpeechError.remoteRefused(status: 403, reason: .keyNotPermitted(apiSays: nil)),
        SpeechError.remoteRefused(status: 404, reason: .notFound(apiSays: nil)),
        SpeechError.remoteRefused(status: 422, reason: .requestRejected(apiSays: nil)),
        SpeechError.remoteRefused(status: 409, reason: .refused(apiSays: nil)),
        SpeechError.remoteRefused(status: 200, reason: .notAudio(contentType: "text/html")),
        SpeechError.remoteRefused(status: 200, reason: .audioTooLarge(bytes: nil, limitBytes: 64 << 20)),
        SpeechError.remoteUnavailable(host: "api.example.com", attempts: 3, reason: "HTTP 503"),
        SpeechError.characterLimitReached(limit: 500, sent: 480, needed: 60),
        SpeechError.remoteUnsupported("read SSML"),
        BookError.fileNotFound(path: "emma.epub"),
        BookError.unreadable(path: "emma.epub", reason: "it is a folder, not a file"),
        BookError.unsupportedFormat(path: "emma.pdf"),
        BookError.noText(path: "emma.txt"),
        BookError.pageNotFound(page: "40", pageCount: 31),
        BookError.bookNotFound(reference: "Emma"),
        BookError.ambiguousBook(reference: "Em", matches: ["1 Emma", "2 Emmeline"]),
        BookError.libraryFailed(reason: "disk I/O error"),
        BookError.endOfBook(title: "Emma", pageCount: 3),
        BookError.emptyFile(path: "emma.epub"),
        BookError.notAZipArchive(path: "emma.epub"),
        BookError.unreadableDocument(path: "emma.docx", format: .docx, reason: "it has no word/document.xml"),
        BookError.unsupportedEncoding(path: "emma.fb2", encoding: "EBCDIC-US"),
        CacheError.notWritable(path: "/c", reason: "read-only"),
        CacheError.indexFailed(path: "/c/index.sqlite", reason: "disk I/O error"),
        CacheError.writeFailed(path: "/c", reason: "full"),
        CacheError.disabled,
        ExportError.ffmpegMissing,
        ExportError.noChapters(title: "Emma"),
        ExportError.chapterOutsidePages(chapter: 3, pageCount: 6),
        ExportError.emptySelection(title: "Emma"),
        ExportError.sampleRateUnsupported(format: "MP3", sampleRate: 20_000, supported: [22_050]),
        ExportError.incomplete(failedChunks: 2, files: ["01.mp3"]),
        ExportError.cancelled,
        NarrationError.engineFailedOnPage(page: "3", .engineFailed(reason: "hung", text: "Hello")),
        PronunciationError.unreadableLexicon(path: "my.pls", reason: "not XML"),
        PronunciationError.tooManyLexicons(count: 40, limit: 32),
    ]

    @Test("Given any library error, when it is described, then the words name no command, option or route of a front end", arguments: 0..<errors.count)
    func noFrontEndWords(index: Int) {
        // When
        let description = Self.errors[index].description

        // Then
        for frontEndWord in ["--", " -f", "narrate ", "GET ", "POST ", "/v1/"] {
            #expect(!description.contains(frontEndWord), "\(description)")
        }
    }

    @Test("Given a book file error, when it is described naming the file otherwise, then that name stands where the quoted path stood")
    func namingTheFile() {
        // Given
        let error = BookError.wrongMimetype(path: "/in/emma.epub", found: "text/plain")

        // When
        let named = error.description(namingFile: "The uploaded file")

        // Then
        #expect(error.filePath == "/in/emma.epub")
        #expect(error.description == "'/in/emma.epub' is not an EPUB: its 'mimetype' entry says 'text/plain' instead of 'application/epub+zip'. Export the book again as EPUB.")
        #expect(named == "The uploaded file is not an EPUB: its 'mimetype' entry says 'text/plain' instead of 'application/epub+zip'. Export the book again as EPUB.")
    }

    @Test("Given a library error that is about no file, when its file is asked for, then there is none")
    func noFile() {
        #expect(BookError.bookNotFound(reference: "Emma").filePath == nil)
        #expect(BookError.libraryFailed(reason: "locked").filePath == nil)
    }
}

@Suite("Engine failures name their engine")
struct EngineFailureWordsTests {
    @Test("Given a Piper voice's child that crashed, when it is described, then the voice is named and eSpeak NG is not; eSpeak's own failure still names eSpeak NG")
    func namesTheEngine() {
        // Given
        let piper = SpeechError.engineFailed(reason: "crashed (SIGABRT)", text: "Hello", engine: "The Piper voice en_US-joe-medium")
        let espeak = SpeechError.engineFailed(reason: "crashed (SIGABRT)", text: "Hello")

        // When / Then
        #expect(piper.description.hasPrefix("The Piper voice en_US-joe-medium crashed (SIGABRT) on the text \u{201C}Hello\u{201D}"))
        #expect(piper.chunkFailure == "The Piper voice en_US-joe-medium crashed (SIGABRT) on \u{201C}Hello\u{201D}")
        #expect(!piper.description.contains("eSpeak"))
        #expect(espeak.description.hasPrefix("eSpeak NG crashed (SIGABRT) on the text"))
    }
}
