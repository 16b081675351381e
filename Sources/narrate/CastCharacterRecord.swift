import NarrateKit

/// One character as `narrate cast --json` prints it.
struct CastCharacterRecord: Encodable {
    let name: String
    let aliases: [String]
    let gender: String
    let lines: Int
}
