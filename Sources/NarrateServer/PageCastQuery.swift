import Hummingbird
import NarrateKit

/// The cast a page's query asks for (its audio and its timing): `cast=auto`, the characters read
/// by the voices `narrate cast` proposes for the book, and any number of `character=NAME=VOICE`,
/// a character's voice instead of the proposed one (the listening room's cast picker).
struct PageCastQuery: Sendable {
    static let maxCharacters = 64

    let overrides: [String: String]

    /// nil without `cast`.
    /// - Throws: `APIError` 400 for a cast other than auto, a `character` that is not NAME=VOICE,
    ///   or too many of them.
    init?(_ query: Parameters) throws(APIError) {
        guard let given = query["cast"] else {
            guard query["character"] == nil else {
                throw APIError.badRequest("A character's voice needs cast=auto beside it.", param: "character")
            }
            return nil
        }
        guard given == "auto" else {
            throw APIError.badRequest("The cast '\(given.prefix(40))' is not one: give cast=auto (each character in a voice of its own), or no cast.", param: "cast")
        }
        let pairs = query.getAll("character")
        guard pairs.count <= Self.maxCharacters else {
            throw APIError.badRequest("At most \(Self.maxCharacters) characters may be given voices.", param: "character")
        }
        var overrides: [String: String] = [:]
        for pair in pairs {
            guard let equals = pair.lastIndex(of: "="), equals != pair.startIndex, pair.index(after: equals) != pair.endIndex,
                  pair.count <= 2 * CastFile.maxNameLength
            else {
                throw APIError.badRequest("A character's voice is NAME=VOICE ('Emma=en-us+f4'), not '\(pair.prefix(40))'.", param: "character")
            }
            overrides[String(pair[..<equals])] = String(pair[pair.index(after: equals)...]).lowercased()
        }
        self.overrides = overrides
    }

    /// What tells this cast apart in a memo key.
    var key: String {
        "cast" + overrides.sorted { $0.key < $1.key }.map { "\u{1E}\($0.key)=\($0.value)" }.joined()
    }

    /// The cast for `speech`'s book, read with `voice`.
    /// - Throws: `APIError` 400 for a voice that is not in the catalog or of another engine.
    func resolve(for speech: PageSpeech, voice: VoiceRequest, in environment: NarrateEnvironment) async throws(APIError) -> VoiceCast {
        do {
            return try await environment.cast(.auto, voice: voice, reading: speech.book.book, overrides: overrides)
        } catch {
            throw SpeechBackend.apiError(error)
        }
    }
}
