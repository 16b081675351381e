import NarrateKit
import Testing

@testable import narrate

/// The CLI's one line per error: the library says what happened in its own terms, the CLI names
/// its flags.
@Suite("Error messages")
struct ErrorMessageTests {
    /// Library errors whose advice, on the command line, is a flag.
    static let flagAdvisedErrors: [any Error] = [
        CacheError.notWritable(path: "/c", reason: "mkdir: Permission denied"),
        CacheError.indexFailed(path: "/c/index.sqlite", reason: "disk I/O error"),
        CacheError.writeFailed(path: "/c/objects/ab/ab12", reason: "write: No space left on device"),
        CacheError.disabled,
        ExportError.noChapters(title: "Moby-Dick"),
        ExportError.chapterOutsidePages(chapter: 3, pageCount: 6),
        ExportError.emptySelection(title: "Moby-Dick"),
        ExportError.ffmpegMissing,
        ExportError.sampleRateUnsupported(format: "MP3", sampleRate: 20_000, supported: [22_050]),
        BookError.libraryFailed(reason: "unable to open database file"),
        BookError.endOfBook(title: "Moby-Dick", pageCount: 3),
        SpeechError.emptyText,
    ]

    @Test("No library error description names a command-line flag; the CLI's line for it does", arguments: 0..<flagAdvisedErrors.count)
    func flagsOnlyInTheCLI(index: Int) {
        // Given
        let error = Self.flagAdvisedErrors[index]

        // When
        let description = String(describing: error)
        let line = ErrorMessage.line(for: error)

        // Then
        #expect(!description.contains("--") && !description.contains(" -f"), "\(description)")
        #expect(line.contains("--") || line.contains(" -f"), "\(line)")
        #expect(!line.contains(".."), "\(line)")
    }

    /// Library errors whose remedy, on the command line, is one of its commands or options, with
    /// the CLI's line for each.
    static let movedWordings: [(any Error, String)] = [
        (SpeechError.voiceNotFound("xx", suggestions: []), "Unknown voice 'xx'. Run 'narrate voices' to list the voices."),
        (SpeechError.voiceNotFound("en-uss", suggestions: ["en-us", "en-gb"]), "Unknown voice 'en-uss'. Did you mean en-us, en-gb? Run 'narrate voices' to list them all."),
        (SpeechError.textTooLong(estimatedHours: 30.25, limitHours: 24),
         "This text would give about 30.3 hours of audio, more than the 24 hours one run may make. Nothing was synthesized; split the text, or add it as a book and export it (narrate add, narrate book)."),
        (SpeechError.remoteUnavailable(host: "api.example.com", attempts: 3, reason: "HTTP 503"),
         "The speech API at api.example.com could not deliver after 3 attempts (HTTP 503). Try again later, or add --fallback espeak to speak such text with eSpeak NG."),
        (SpeechError.remoteUnavailable(host: "api.example.com", attempts: 1, reason: "cancelled"),
         "The speech API at api.example.com could not deliver after 1 attempt (cancelled). Try again later, or add --fallback espeak to speak such text with eSpeak NG."),
        (SpeechError.characterLimitReached(limit: 500, sent: 480, needed: 60),
         "Sending 60 more characters to the speech API would pass --max-characters 500 (480 sent in this run); nothing past the cap was sent. Raise --max-characters to go on: audio already in the cache costs nothing."),
        (SpeechError.remoteUnsupported("read SSML"), "The remote speech engine cannot read SSML; drop --remote to use eSpeak NG for it."),
        (BookError.bookNotFound(reference: "Emma"), "No book matches 'Emma'. Give a file path, a library id or a title prefix; 'narrate list' shows the library."),
        (ExportError.speech(.remoteUnsupported("read eSpeak phonemes")), "The remote speech engine cannot read eSpeak phonemes; drop --remote to use eSpeak NG for it."),
        // Two full stops, as this line always had: the speech error's and the export's.
        (ExportError.synthesisFailed(pageLabel: "12", .remoteUnsupported("read SSML")),
         "Synthesis failed on page 12: The remote speech engine cannot read SSML; drop --remote to use eSpeak NG for it.."),
        (ExportError.book(.bookNotFound(reference: "7")), "No book matches '7'. Give a file path, a library id or a title prefix; 'narrate list' shows the library."),
        (NarrationError.book(.bookNotFound(reference: "Emma")), "No book matches 'Emma'. Give a file path, a library id or a title prefix; 'narrate list' shows the library."),
        (NarrationError.speech(.voiceNotFound("xx", suggestions: [])), "Unknown voice 'xx'. Run 'narrate voices' to list the voices."),
        (NarrationError.engineFailedOnPage(page: "3", .engineFailed(reason: "crashed", text: "Hello")),
         "Page 3: eSpeak NG crashed on the text \u{201C}Hello\u{201D}; nothing was written. Rephrase or remove that text and try again."),
    ]

    /// Remote refusals, as the CLI words them: the options to check.
    static let remoteRefusals: [(SpeechError, String)] = [
        (.remoteRefused(status: 0, reason: .keyFileUnreadable(path: "/k")),
         "The remote speech engine cannot be used: the API key file /k cannot be read. Check --api-key-file."),
        (.remoteRefused(status: 0, reason: .keyFileEmpty(path: "/k")),
         "The remote speech engine cannot be used: the API key file /k is empty. Put the key on its first line."),
        (.remoteRefused(status: 0, reason: .notAnAPIBase(url: "ftp://x")),
         "The remote speech engine cannot be used: 'ftp://x' is not an API base URL. Give one like https://api.openai.com/v1 or http://127.0.0.1:8880/v1."),
        (.remoteRefused(status: 0, reason: .emptyModelOrVoice), "The remote speech engine cannot be used: the remote model and voice must not be empty."),
        (.remoteRefused(status: 0, reason: .requestNotEncodable), "The remote speech engine cannot be used: the request could not be encoded"),
        (.remoteRefused(status: 401, reason: .keyRejected(apiSays: "Incorrect API key provided")),
         "The speech API refused the request (HTTP 401): the API key was refused (the API says: Incorrect API key provided). Set NARRATE_API_KEY or OPENAI_API_KEY, or give --api-key-file."),
        (.remoteRefused(status: 403, reason: .keyNotPermitted(apiSays: nil)),
         "The speech API refused the request (HTTP 403): the API key may not use this model or voice. Check --remote-model and --remote-voice, and the key's permissions."),
        (.remoteRefused(status: 404, reason: .notFound(apiSays: nil)),
         "The speech API refused the request (HTTP 404): the API has no such endpoint, model or voice. Check --remote (the base, like https://api.openai.com/v1), --remote-model and --remote-voice."),
        (.remoteRefused(status: 422, reason: .requestRejected(apiSays: "no such voice")),
         "The speech API refused the request (HTTP 422): the API rejected the request (the API says: no such voice). Check --remote-model, --remote-voice and the speed (--rate)."),
        (.remoteRefused(status: 409, reason: .refused(apiSays: nil)), "The speech API refused the request (HTTP 409): the API refused the request."),
        (.remoteRefused(status: 200, reason: .notAudio(contentType: "text/html")),
         "The speech API refused the request (HTTP 200): the API answered text/html, not audio. Check --remote: it must be the API base, like https://api.openai.com/v1."),
        (.remoteRefused(status: 200, reason: .notAudio(contentType: "")),
         "The speech API refused the request (HTTP 200): the API answered something without a content type, not audio. Check --remote: it must be the API base, like https://api.openai.com/v1."),
        (.remoteRefused(status: 200, reason: .audioTooLarge(bytes: 70_000_000, limitBytes: 64 << 20)),
         "The speech API refused the request (HTTP 200): the audio would be 70000000 bytes, more than the 64 MiB one text may give"),
        (.remoteRefused(status: 200, reason: .audioTooLarge(bytes: nil, limitBytes: 64 << 20)),
         "The speech API refused the request (HTTP 200): the audio is longer than the 64 MiB one text may give"),
    ]

    @Test("A remote API's refusal names the options to check; the library's description names none", arguments: 0..<remoteRefusals.count)
    func remoteRefusal(index: Int) {
        // Given
        let (error, expected) = Self.remoteRefusals[index]

        // When / Then
        #expect(ErrorMessage.line(for: error) == expected)
        #expect(!error.description.contains("--"), "\(error.description)")
    }

    @Test("The CLI names its commands and options where the library's description does not", arguments: 0..<movedWordings.count)
    func commandsAndOptionsOnlyInTheCLI(index: Int) {
        // Given
        let (error, expected) = Self.movedWordings[index]

        // When
        let line = ErrorMessage.line(for: error)
        let description = String(describing: error)

        // Then
        #expect(line == expected)
        #expect(!description.contains("--") && !description.contains("narrate "), "\(description)")
    }

    @Test("The CLI words cache errors with its options, also when they come wrapped in speech or export errors")
    func cacheErrorsNameTheOptions() {
        // Given
        let error = CacheError.notWritable(path: "/c", reason: "mkdir: Permission denied")
        let expected = "The audio cache folder '/c' is not writable (mkdir: Permission denied). Choose another with --cache-dir or NARRATE_CACHE_DIR, or use --no-cache."

        // When / Then
        #expect(ErrorMessage.line(for: error) == expected)
        #expect(ErrorMessage.line(for: SpeechError.cacheFailed(error)) == expected)
        #expect(ErrorMessage.line(for: ExportError.speech(.cacheFailed(error))) == expected)
        #expect(error.description == "The audio cache folder '/c' is not writable (mkdir: Permission denied). Choose another cache folder, or turn the cache off.")
    }

    @Test("An export without the cache says why it needs one and which flag to drop")
    func exportWithoutCache() {
        // When
        let line = ErrorMessage.line(for: ExportError.speech(.cacheFailed(.disabled)))

        // Then
        #expect(line == "Exporting a book needs the audio cache (it is what makes an export resumable and parallel): drop --no-cache.")
    }

    @Test("An output failure's advice follows its cause, in one line with single full stops", arguments: [
        (OutputError.Cause.alreadyExists, "Could not write 'out': something of that name is in the way; nothing was written. Move it away or choose another name, then try again."),
        (.permissionDenied, "Could not write 'out': permission denied; nothing was written. Choose a folder you may write to, or change its permissions, then try again."),
        (.noSpace, "Could not write 'out': the disk is full; nothing was written. Free some space, then try again."),
        (.missingFolder, "Could not write 'out': its folder does not exist; nothing was written. Create the folder or choose another, then try again."),
        (.other("Input/output error."), "Could not write 'out': Input/output error; nothing was written. Check the folder and the disk, then try again."),
    ])
    func outputAdviceFollowsCause(cause: OutputError.Cause, expected: String) {
        // Given
        let error = OutputError(path: "out", cause: cause)

        // When / Then
        #expect(ErrorMessage.line(for: SpeechError.outputFailed(error)) == expected)
    }

    @Test("An export's output failure adds that finished files are kept, without a doubled full stop")
    func exportOutputFailure() {
        // When
        let line = ErrorMessage.line(for: ExportError.outputFailed(OutputError(path: "out", cause: .alreadyExists)))

        // Then
        #expect(line == "Could not write 'out': something of that name is in the way. Move it away or choose another name, then run the same command again: finished files are kept.")
    }
}
