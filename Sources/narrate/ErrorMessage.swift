import NarrateKit

/// The one line the CLI prints for an error. The library's errors say what happened and what to
/// do in general terms; where the remedy is one of this CLI's options or commands, the wording
/// that names it is here, not in the library.
enum ErrorMessage {
    static func line(for error: any Error) -> String {
        switch error {
        case let error as SpeechError: speech(error)
        case let error as ExportError: export(error)
        case let error as NarrationError: narration(error)
        case let error as BookError: book(error)
        case let error as BookmarkError: bookmark(error)
        case let error as CacheError: cache(error)
        default: String(describing: error)
        }
    }

    static func speech(_ error: SpeechError) -> String {
        switch error {
        case .emptyText:
            "There is no text to speak. Give a text, a file with -f, or pipe text on standard input."
        case let .voiceNotFound(name, suggestions):
            suggestions.isEmpty
                ? "Unknown voice '\(name)'. Run 'narrate voices' to list the voices."
                : "Unknown voice '\(name)'. Did you mean \(suggestions.joined(separator: ", "))? Run 'narrate voices' to list them all."
        case let .textTooLong(hours, limit):
            "This text would give about \(SpeechError.amount(hours)) hours of audio, more than the \(SpeechError.amount(limit)) hours one run may make. Nothing was synthesized; split the text, or add it as a book and export it (narrate add, narrate book)."
        case let .remoteRefused(status, reason):
            reason.line(status: status)
        case let .remoteUnavailable(host, attempts, reason):
            "The speech API at \(host) could not deliver after \(attempts) attempt\(attempts == 1 ? "" : "s") (\(reason)). Try again later, or add --fallback espeak to speak such text with eSpeak NG."
        case let .characterLimitReached(limit, sent, needed):
            "Sending \(needed) more characters to the speech API would pass --max-characters \(limit) (\(sent) sent in this run); nothing past the cap was sent. Raise --max-characters to go on: audio already in the cache costs nothing."
        case let .remoteUnsupported(what):
            "The remote speech engine cannot \(what); drop --remote to use eSpeak NG for it."
        case let .cacheFailed(error):
            cache(error)
        default:
            error.description
        }
    }

    static func cache(_ error: CacheError) -> String {
        if case let .storeUnusable(reason) = error {
            // The reason names its own fix already.
            return "The cache store cannot be used: \(reason) To narrate with the local cache alone, drop --cache-store and NARRATE_CACHE_STORE."
        }
        let remedy = switch error {
        case .notWritable: "Choose another with --cache-dir or NARRATE_CACHE_DIR, or use --no-cache"
        case .indexFailed: "Run 'narrate cache clear' or choose another --cache-dir"
        case .writeFailed: "Check free space, or use --no-cache"
        case .disabled: "Drop --no-cache"
        case .storeUnusable: ""
        }
        return "\(error.problem). \(remedy)."
    }

    static func export(_ error: ExportError) -> String {
        switch error {
        case .speech(.cacheFailed(.disabled)):
            "Exporting a book needs the audio cache (it is what makes an export resumable and parallel): drop --no-cache."
        case let .speech(error): speech(error)
        case let .book(error): book(error)
        case let .synthesisFailed(pageLabel, error):
            "Synthesis failed on page \(pageLabel): \(speech(error))."
        case .ffmpegMissing:
            "M4B needs the ffmpeg program, which is not installed. Install it (apt-get install ffmpeg) or choose --format mp3 or wav."
        case let .sampleRateUnsupported(format, sampleRate, supported):
            "\(format) cannot hold audio at \(sampleRate) Hz (it takes \(supported.map(String.init).joined(separator: ", ")) Hz); choose --format \(format == "MP3" ? "m4b" : "mp3") or wav."
        case let .noChapters(title):
            "'\(title)' has no chapters; choose pages with --pages."
        case let .chapterOutsidePages(chapter, pageCount):
            "Chapter \(chapter) starts outside the book's pages (1-\(pageCount)); choose pages with --pages."
        case let .emptySelection(title):
            "The selection holds no text of '\(title)'. Choose other pages with --pages or chapters with --chapters."
        default:
            error.description
        }
    }

    static func narration(_ error: NarrationError) -> String {
        switch error {
        case let .book(error): book(error)
        case let .speech(error): speech(error)
        case let .engineFailedOnPage(page, error): "Page \(page): \(speech(error))"
        }
    }

    static func bookmark(_ error: BookmarkError) -> String {
        switch error {
        case let .book(error): book(error)
        case let .bookmarkNotFound(id, title):
            "'\(title)' has no bookmark \(id). 'narrate bookmarks BOOK' lists its bookmarks and their ids."
        default: error.description
        }
    }

    static func book(_ error: BookError) -> String {
        switch error {
        case let .bookNotFound(reference):
            "No book matches '\(reference)'. Give a file path, a library id or a title prefix; 'narrate list' shows the library."
        case let .endOfBook(title, pageCount):
            "'\(title)' is read to the end (page \(pageCount) of \(pageCount)). Narrate a page by number with 'narrate page', or start over with 'narrate next --restart'."
        case let .libraryFailed(reason):
            "The book library could not be used: \(reason). Check that its folder is writable, or choose another with --library."
        case let .passwordRequired(path, given):
            given
                ? "'\(path)' is encrypted and the password given for it is wrong. Give its user password with --password or NARRATE_PDF_PASSWORD."
                : "'\(path)' is encrypted: give its user password with --password or NARRATE_PDF_PASSWORD (or remove it with 'qpdf --decrypt')."
        default:
            error.description
        }
    }
}
