import Foundation
import HTTPTypes
import NarrateKit

/// What the book routes share: a path's book id to a library book, and the library's errors
/// as API errors. `LibraryController`, `BookPagesController`, `PageAudioController`, `PageTimingController`,
/// `BookCoverController` and `ExportController` conform.
protocol BookRoutes: Sendable {
    var backend: SpeechBackend { get }
}

extension BookRoutes {
    func find(_ id: String) async throws -> LibraryBook {
        let reference = try Self.reference(id)
        return try await call { () throws(BookError) in try await backend.library.getBookDetail.execute(reference: reference) }
    }

    /// A path's book id as a library reference: only ids, never a file path or title.
    static func reference(_ id: String) throws(APIError) -> String {
        guard Int64(id) != nil else { throw APIError.notFound("There is no book '\(id)': book ids are numbers (GET /v1/books lists them).") }
        return id
    }

    /// The page `page` of book `id` with `voice`, as it is narrated (the page audio's and its
    /// timing's).
    func resolve(id: String, page: String, voice: VoiceRequest) async throws -> PageSpeech {
        let reference = try Self.reference(id)
        do {
            return try await backend.resolvePageSpeech.execute(reference: reference, page: page, voice: voice)
        } catch {
            throw SpeechBackend.apiError(error)
        }
    }

    /// Runs a library call, its errors as API errors.
    func call<T>(_ body: () async throws(BookError) -> T) async throws(APIError) -> T {
        do {
            return try await body()
        } catch {
            throw Self.apiError(error)
        }
    }

    /// A library error as an API error (`APIError+BookError.swift` words it).
    static func apiError(_ error: BookError) -> APIError {
        APIError(error)
    }
}
