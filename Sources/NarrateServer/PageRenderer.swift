import Foundation
import HTTPTypes
import NIOCore
import NarrateKit

/// A page's encoded audio as a file: the cache folder's `responses/` keeps one per entity tag
/// (text, voice, engine and format), written under a temporary name and renamed into place,
/// so a cached page is served like a static file.
extension SpeechBackend {
    /// The folder rendered responses live in.
    var responsesDirectory: String {
        (configuration.cacheDirectory ?? NSTemporaryDirectory() + "/narrate-\(getuid())") + "/responses"
    }

    /// The file holding `page` spoken by `voice` as `format`, rendered now if it is not yet.
    /// - Throws: `APIError` (429 when busy, 5xx when synthesis or encoding fails).
    func renderedPage(book: Book, page: Page, voice: VoiceProfile, format: StreamFormat, tag: String, channel: (any Channel)?) async throws -> String {
        let name = tag.filter { $0.isLetter || $0.isNumber || $0 == "-" }
        let path = "\(responsesDirectory)/\(name).\(format.rawValue)"
        if access(path, R_OK) == 0 { return path }
        let speech = try await speak(page.text, voice: voice, channel: channel)
        var audio: [SpeechAudio] = []
        do {
            while let chunk = try await speech.next() { audio.append(chunk) }
        } catch let error as SpeechError {
            throw Self.apiError(error)
        }
        let sampleRate = audio.first?.sampleRate ?? 22_050
        let total = audio.reduce(0) { $0 + $1.samples.count }
        let bytes: [UInt8]
        do {
            let encoder = try makeAudioStreamEncoder(format: format, sampleRate: sampleRate, knownSampleCount: total)
            async let collected: [UInt8] = {
                var all: [UInt8] = []
                for try await part in encoder.output { all += part }
                return all
            }()
            for chunk in audio { try encoder.feed(chunk.samples) }
            try encoder.finish()
            bytes = try await collected
        } catch {
            throw APIError(.internalServerError, "The page could not be encoded as \(format.rawValue): \(error)", code: "encoder_failed")
        }
        do {
            try FileManager.default.createDirectory(atPath: responsesDirectory, withIntermediateDirectories: true)
            let temporary = "\(path).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
            try Data(bytes).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path) == 0 else {
                unlink(temporary)
                throw CocoaError(.fileWriteUnknown)
            }
        } catch {
            throw APIError(HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), "The page audio could not be stored in \(responsesDirectory): \(error.localizedDescription)", code: "storage_failed")
        }
        return path
    }
}
