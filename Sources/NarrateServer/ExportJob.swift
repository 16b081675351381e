import Foundation
import Hummingbird
import NarrateKit

/// A book exported for download (`POST /v1/books/{id}/exports`): what was asked, how far it has
/// come, and its file when done. Kept as `job.json` in the job's folder, so a job survives a
/// restart of the service (a queued or running one starts again and resumes from the cache).
struct ExportJob: Codable, Sendable, Equatable {
    enum State: String, Codable, Sendable {
        case queued, running, done, failed, cancelled

        var isOver: Bool { self == .done || self == .failed || self == .cancelled }
    }

    var id: String
    var book_id: String
    var title: String
    var format: String
    var voice: String?
    var speed: Double?
    /// "auto": each character read in the voice `narrate cast` proposes; nil: the voice alone.
    var cast: String?
    /// 1-based, inclusive; none: the whole book.
    var chapters: [Int]?
    var state: State
    /// Chunks of text done and to do (files for a read-along EPUB count as their chunks).
    var done: Int
    var total: Int
    var error: String?
    /// The exported file (its path in the job's folder) and its size, once done.
    var file_name: String?
    var bytes: Int64?
    var created: Date
    /// When it ended (done, failed or cancelled); `nil` before, and in jobs older services wrote.
    var finished: Date?

    /// The name its file downloads as: the book's title (with the chapters, when not all) and
    /// the format's extension.
    var downloadName: String {
        let chapters = chapters.map { $0[0] == $0[1] ? " (chapter \($0[0]))" : " (chapters \($0[0])-\($0[1]))" } ?? ""
        return FileName.readable(title + chapters) + "." + format
    }

    /// How much is done, 0 to 1 (1 once done).
    var fraction: Double {
        state == .done ? 1 : total > 0 ? min(Double(done) / Double(total), 0.999) : 0
    }
}

/// What the API answers for a job: the job with its fraction done and its links.
struct ExportJobResponse: ResponseEncodable, Sendable {
    var id: String
    var book_id: String
    var title: String
    var format: String
    var voice: String?
    var speed: Double?
    var chapters: [Int]?
    var state: String
    var done: Int
    var total: Int
    var fraction: Double
    var error: String?
    /// The name the file downloads as.
    var file_name: String?
    var bytes: Int64?
    /// ISO 8601.
    var created: String
    var events: String
    var download: String?

    init(_ job: ExportJob) {
        id = job.id
        book_id = job.book_id
        title = job.title
        format = job.format
        voice = job.voice
        speed = job.speed
        chapters = job.chapters
        state = job.state.rawValue
        done = job.done
        total = job.total
        fraction = (job.fraction * 1000).rounded() / 1000
        error = job.error
        file_name = job.file_name.map { _ in job.downloadName }
        bytes = job.bytes
        created = ISO8601DateFormatter().string(from: job.created)
        events = "/v1/exports/\(job.id)/events"
        download = job.state == .done ? "/v1/exports/\(job.id)/file" : nil
    }
}

struct ExportJobListResponse: ResponseEncodable, Sendable {
    var exports: [ExportJobResponse]
}
