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
        let path = renderedPath(tag: tag, format: format)
        if access(path, R_OK) == 0 { return path }
        let (rendering, isFirst) = renders.join(path) {
            // Not cancelled with the client that started it: the others wait for it too.
            Task { try await self.render(speech, format: format, to: path) }
        }
        defer { if isFirst { renders.end(path) } }
        return try await rendering.value
    }

    private func render(_ speech: PageSpeech, format: StreamFormat, to path: String) async throws -> String {
        try await keep(try await narrated(speech), of: speech, format: format, at: path)
        return path
    }

    /// Writes the page's audio as `format` at `path`, and its timing beside it.
    private func keep(_ audio: SpeechAudio, of speech: PageSpeech, format: StreamFormat, at path: String) async throws {
        do {
            try await writeAudioFile([audio], format: format, to: path)
        } catch {
            throw APIError(
                HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), "The page audio could not be written as \(format.rawValue); the service's log says why.",
                code: "storage_failed", detail: "The page audio could not be written as \(format.rawValue) in \(responsesDirectory): \(error)")
        }
        // Its timing comes with it, so the page's highlight costs no second narration.
        do {
            try PageTimingRecord(text: speech.page.text, audio: audio, timing: environment.speechTiming(for: speech.voice.profile))
                .write(to: timingPath(try await entityTag(for: speech.speechRequest, format: "timing")))
        } catch {
            logger.warning("The page's timing could not be kept beside its audio: \(error)")
        }
    }

    /// The page `speech` names as it is narrated, for a page not yet rendered: its chunks as
    /// they come (the first already there when this returns, so a failure is still a status),
    /// while the whole is written as the rendered file at `path` and its timing beside it. A
    /// request for the file or the timing meanwhile waits for this rendering; nothing is
    /// synthesized twice. `nil` when a rendering of the page is already under way.
    /// - Throws: `APIError` (429 when busy, 5xx when synthesis fails on the first chunk).
    func streamedPage(_ speech: PageSpeech, format: StreamFormat, path: String) async throws -> SpeechStream? {
        let timing = timingPath(try await entityTag(for: speech.speechRequest, format: "timing"))
        let (chunks, continuation) = AsyncThrowingStream.makeStream(of: SpeechAudio.self, throwing: (any Error).self)
        // The rendering starts once it is the page's: a gate opened after it is adopted.
        // It ends the flights it was given.
        let (gate, opening) = AsyncStream.makeStream(of: [String].self)
        let rendering = Task<String, any Error> {
            var opened = gate.makeAsyncIterator()
            guard let owned = await opened.next(), !owned.isEmpty else { throw CancellationError() }
            defer { for flight in owned { renders.end(flight) } }
            let audio: SpeechAudio
            do {
                audio = try await narrated(speech) { continuation.yield($0) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
                throw error
            }
            try await keep(audio, of: speech, format: format, at: path)
            return path
        }
        guard renders.adopt(path, rendering) else {
            opening.yield([])
            return nil
        }
        opening.yield(renders.adopt(timing, rendering) ? [path, timing] : [path])
        let stream = SpeechStream(chunks)
        do {
            stream.first = try await stream.next()
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError(.internalServerError, "Synthesis failed; the service's log says why.", code: "synthesis_failed", detail: "Synthesis failed: \(error)")
        }
        return stream
    }

    /// Where the page of entity tag `tag` is kept as `format`.
    func renderedPath(tag: String, format: StreamFormat) -> String {
        "\(responsesDirectory)/\(tag.filter { $0.isLetter || $0.isNumber || $0 == "-" }).\(format.rawValue)"
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
                let record = PageTimingRecord(text: speech.page.text, audio: audio, timing: environment.speechTiming(for: speech.voice.profile))
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

    /// The page's audio, narrated through the cache once a synthesis slot is free, each chunk
    /// handed to `onChunk` as it comes.
    private func narrated(_ speech: PageSpeech, onChunk: (@Sendable (SpeechAudio) async -> Void)? = nil) async throws -> SpeechAudio {
        try await admit(channel: nil)
        metrics.synthesisStarted()
        let narrated: Result<NarratedPage, NarrationError>
        do throws(NarrationError) {
            if let onChunk {
                narrated = .success(try await narratePage.execute(speech, refresh: false, onChunk: onChunk))
            } else {
                narrated = .success(try await narratePage.execute(speech, refresh: false))
            }
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

    /// Makes `task` the rendering of `path`, unless one is under way; whether it did.
    func adopt(_ path: String, _ task: Task<String, any Error>) -> Bool {
        flights.withLock { flights in
            guard flights[path] == nil else { return false }
            flights[path] = task
            return true
        }
    }

    func end(_ path: String) {
        flights.withLock { _ = $0.removeValue(forKey: path) }
    }
}
