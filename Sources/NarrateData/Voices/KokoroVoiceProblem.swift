/// What is wrong with a Kokoro voice's files: a sentence that completes "The voice 'x' cannot
/// speak: …".
struct KokoroVoiceProblem: Error, Sendable, Equatable {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
