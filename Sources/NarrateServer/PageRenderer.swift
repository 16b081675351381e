import Foundation
import HTTPTypes
import NIOCore
import NarrateKit

/// A page's encoded audio as a file: the cache folder's `responses/` keeps one per entity tag
/// (text, voice, engine and format), written under a temporary name and renamed into place
/// (`AudioFileRenderer`), so a cached page is served like a static file.
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
        do {
            try FileManager.default.createDirectory(atPath: responsesDirectory, withIntermediateDirectories: true)
            try await AudioFileRenderer.write(audio, format: format, to: path)
        } catch {
            throw APIError(HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), "The page audio could not be written as \(format.rawValue) in \(responsesDirectory): \(error)", code: "storage_failed")
        }
        return path
    }
}
