import Foundation
import HTTPTypes
import Logging
import NIOCore
import NarrateKit
import Synchronization

/// A page's encoded audio as a file: the cache folder's `responses/` keeps one per entity tag
/// (text, voice, engine and format), written under a temporary name and renamed into place
/// (`writeAudioFile`), so a cached page is served like a static file.
extension SpeechBackend {
    /// The folder rendered responses live in.
    var responsesDirectory: String {
        environment.renderedFilesDirectory
    }

    /// The file holding the page `speech` names as `format`, rendered now if it is not yet:
    /// narrated by `narratePage` (the second half of `narrate page`'s use case, on the page
    /// already resolved) once a synthesis slot is free. Clients asking at once for a page not
    /// yet rendered share one rendering.
    /// - Throws: `APIError` (429 when busy, 5xx when synthesis or encoding fails).
    func renderedPage(_ speech: PageSpeech, format: StreamFormat, tag: String) async throws -> String {
        let name = tag.filter { $0.isLetter || $0.isNumber || $0 == "-" }
        let path = "\(responsesDirectory)/\(name).\(format.rawValue)"
        if access(path, R_OK) == 0 { return path }
        let (rendering, isFirst) = renders.join(path) {
            // Not cancelled with the client that started it: the others wait for it too.
            Task { try await self.render(speech, format: format, to: path) }
        }
        defer { if isFirst { renders.end(path) } }
        return try await rendering.value
    }

    private func render(_ speech: PageSpeech, format: StreamFormat, to path: String) async throws -> String {
        let audio = try await narrated(speech)
        do {
            try await writeAudioFile([audio], format: format, to: path)
        } catch {
            throw APIError(
                HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), "The page audio could not be written as \(format.rawValue); the service's log says why.",
                code: "storage_failed", detail: "The page audio could not be written as \(format.rawValue) in \(responsesDirectory): \(error)")
        }
        // Its timing comes with it, so the page's highlight costs no second narration.
        do {
            try PageTimingRecord(text: speech.page.text, audio: audio, timing: PageTimingRecord.timing(of: speech.voice.profile))
                .write(to: timingPath(try await entityTag(for: speech.speechRequest, format: "timing")))
        } catch {
            logger.warning("The page's timing could not be kept beside its audio: \(error)")
        }
        return path
    }

    /// The file a page's timing record (`PageTimingRecord`) is kept in, for the tag of
    /// `entityTag(for:format: "timing")`.
    func timingPath(_ tag: String) -> String {
        "\(responsesDirectory)/\(tag.filter { $0.isLetter || $0.isNumber || $0 == "-" }).json"
    }

    /// The timing of the page `speech` names: kept when its audio was rendered, else narrated
    /// now (from the cache where the audio is there) and kept. Clients asking at once share one.
    /// - Throws: `APIError` (429 when busy, 5xx when synthesis fails or the record cannot be kept).
    func renderedTiming(_ speech: PageSpeech, tag: String) async throws -> PageTimingRecord {
        let path = timingPath(tag)
        if let record = PageTimingRecord.read(path) { return record }
        let (rendering, isFirst) = renders.join(path) {
            Task {
                let audio = try await self.narrated(speech)
                let record = PageTimingRecord(text: speech.page.text, audio: audio, timing: PageTimingRecord.timing(of: speech.voice.profile))
                do {
                    try record.write(to: path)
                } catch {
                    throw APIError(
                        HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), "The page's timing could not be kept; the service's log says why.",
                        code: "storage_failed", detail: "The page's timing could not be written in \(responsesDirectory): \(error)")
                }
                return path
            }
        }
        defer { if isFirst { renders.end(path) } }
        _ = try await rendering.value
        guard let record = PageTimingRecord.read(path) else {
            throw APIError(.internalServerError, "The page's timing could not be read back.", code: "storage_failed")
        }
        return record
    }

    /// The page's audio, narrated through the cache once a synthesis slot is free.
    private func narrated(_ speech: PageSpeech) async throws -> SpeechAudio {
        try await admit(channel: nil)
        metrics.synthesisStarted()
        let narrated: Result<NarratedPage, NarrationError>
        do throws(NarrationError) {
            narrated = .success(try await narratePage.execute(speech, refresh: false))
        } catch {
            narrated = .failure(error)
        }
        metrics.synthesisEnded()
        await queue.release()
        return try narrated.mapError { Self.apiError($0) }.get().narration.audio
    }

    /// A narration error as an API error: the book's (404 and the like), the speech's, or the
    /// engine failing on the page.
    static func apiError(_ error: NarrationError) -> APIError {
        switch error {
        case let .book(error): LibraryController.apiError(error)
        case let .speech(error): apiError(error)
        case let .engineFailedOnPage(_, error): apiError(error)
        }
    }
}

/// Renderings in progress, by file: a second request for the same file joins the first.
final class RenderFlights: Sendable {
    private let flights = Mutex<[String: Task<String, any Error>]>([:])

    /// The rendering of `path` in progress, or a new one from `start`; `true` when new (its
    /// caller ends it).
    func join(_ path: String, start: () -> Task<String, any Error>) -> (Task<String, any Error>, Bool) {
        flights.withLock { flights in
            if let running = flights[path] { return (running, false) }
            let task = start()
            flights[path] = task
            return (task, true)
        }
    }

    func end(_ path: String) {
        flights.withLock { _ = $0.removeValue(forKey: path) }
    }
}
