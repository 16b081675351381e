/// One character as `narrate cast --json` prints it.
struct CastCharacterRecord: Encodable {
    let name: String
    let aliases: [String]
    let gender: String
    let lines: Int
    /// The voice proposed for it; absent for a character who says nothing.
    let voice: String?
}
