import Hummingbird
import NarrateKit

/// A library book's cast over HTTP: `GET /v1/books/{id}/cast` (with the page's `voice` and
/// `speed`): its characters who speak, most lines first, each with the voice `narrate cast`
/// proposes, and the voices a character may be given instead (the listening room's picker).
struct BookCastController: BookRoutes {
    let backend: SpeechBackend

    func register(on router: Router<ServerRequestContext>) {
        router.group("/v1/books").get("{id}/cast") { request, context in
            try await cast(request, id: try context.parameters.require("id"))
        }
    }

    func cast(_ request: Request, id: String) async throws -> BookCastResponse {
        let book = try await find(id)
        let voice = try PageAudioController.voice(request.uri.queryParameters)
        let proposal: (file: CastFile, candidates: [CastCandidate])
        do { proposal = try await backend.environment.proposal(voice: voice, reading: book.book) } catch { throw SpeechBackend.apiError(error) }
        return BookCastResponse(
            book_id: book.id.description, narrator: proposal.file.narrator ?? "", dialogue: proposal.file.dialogue ?? "",
            characters: proposal.file.characters.map {
                BookCastResponse.Character(name: $0.name, aliases: $0.aliases ?? [], gender: $0.gender ?? "U", lines: $0.lines ?? 0, voice: $0.voice)
            },
            voices: proposal.candidates.map { BookCastResponse.Voice(name: $0.name, gender: $0.gender.rawValue) })
    }
}

/// `GET /v1/books/{id}/cast`.
struct BookCastResponse: ResponseEncodable, Sendable {
    struct Character: Encodable, Sendable {
        var name: String
        var aliases: [String]
        /// F, M or U (unknown).
        var gender: String
        var lines: Int
        var voice: String
    }

    struct Voice: Encodable, Sendable {
        var name: String
        var gender: String
    }

    var book_id: String
    var narrator: String
    var dialogue: String
    var characters: [Character]
    var voices: [Voice]
}
