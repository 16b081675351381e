/// What a caller asks a cast to be: one the installed voices suggest for the book (`auto`), or
/// a cast file's.
public enum CastRequest: Sendable, Hashable {
    case auto
    case file(CastFile)
}

/// The cast that reads a text: its voices chosen as `--voice` chooses one, every voice of one
/// engine and sample rate as the narrator's.
public protocol ResolveCastUseCaseContract: Sendable {
    /// - Parameters:
    ///   - request: `auto` (a cast proposed from `text`'s characters and the installed voices)
    ///     or a cast file.
    ///   - narrator: the voice chosen for the text (`--voice` or the book's language's): the
    ///     narrator and dialogue voice where the file names none.
    ///   - voice: what the caller asked for, whose parameters and lexicons every voice gets.
    ///   - text: the book's or file's whole text, whose characters `auto` casts.
    /// - Throws: `SpeechError.voiceNotFound` for a voice the file names that is not installed,
    ///   `.voiceFailed` for a cast file that is not one, or a voice of another engine.
    func execute(_ request: CastRequest, narrator: VoiceChoice, voice: VoiceRequest, reading book: Book?, text: String) async throws(SpeechError) -> VoiceCast

    /// The cast file `auto` stands for: `narrate cast`'s proposal.
    func propose(for analysis: DialogueAnalysis, narrator: VoiceChoice) async throws(SpeechError) -> CastFile

    /// The voices a cast may give its characters beside `narrator` (`CastCandidate.candidates`).
    func candidates(beside narrator: VoiceChoice) async throws(SpeechError) -> [CastCandidate]
}

/// Resolves a cast's voices through `ChooseVoiceUseCase`, and proposes one with `CastProposer`
/// from the installed voices (`GetVoicesUseCase`).
public struct ResolveCastUseCase: ResolveCastUseCaseContract {
    private let chooser: any ChooseVoiceUseCaseContract
    private let voices: any GetVoicesUseCaseContract

    public init(chooser: any ChooseVoiceUseCaseContract, voices: any GetVoicesUseCaseContract) {
        self.chooser = chooser
        self.voices = voices
    }

    public func propose(for analysis: DialogueAnalysis, narrator: VoiceChoice) async throws(SpeechError) -> CastFile {
        CastProposer.propose(analysis, narrator: narrator.profile.displayName, candidates: try await candidates(beside: narrator))
    }

    public func candidates(beside narrator: VoiceChoice) async throws(SpeechError) -> [CastCandidate] {
        let installed = narrator.profile.isNeural ? try await voices.execute(language: nil) : []
        return CastCandidate.candidates(beside: narrator.profile, named: narrator.profile.displayName, installed: installed)
    }

    public func execute(_ request: CastRequest, narrator: VoiceChoice, voice: VoiceRequest, reading book: Book?, text: String) async throws(SpeechError) -> VoiceCast {
        let file: CastFile
        switch request {
        case .auto: file = try await propose(for: DialogueAnalyzer.analyze(text), narrator: narrator)
        case let .file(given): file = given
        }
        if let problem = file.problem { throw .voiceFailed(voice: "cast", reason: "the cast file is not one: \(problem)") }
        var resolved: [String: VoiceProfile] = [narrator.profile.displayName: narrator.profile]
        func resolve(_ name: String?) async throws(SpeechError) -> VoiceProfile {
            guard let name else { return narrator.profile }
            if let known = resolved[name] { return known }
            var asked = voice
            asked.name = name
            let profile = try await chooser.execute(asked, reading: book).profile
            guard Self.sameEngine(profile, narrator.profile) else {
                throw .voiceFailed(voice: name, reason: "a cast's voices must be of one engine and sample rate, and the narrator is \(narrator.profile.displayName), \(Self.engine(of: narrator.profile)); choose another voice of that engine")
            }
            resolved[name] = profile
            return profile
        }
        let narratorVoice = try await resolve(file.narrator)
        let dialogue = try await resolve(file.dialogue ?? file.narrator)
        var members: [CastMember] = []
        for character in file.characters {
            members.append(CastMember(names: [character.name] + (character.aliases ?? []), voice: try await resolve(character.voice)))
        }
        return VoiceCast(narrator: narratorVoice, dialogue: dialogue, members: members)
    }

    private static func engine(of profile: VoiceProfile) -> String {
        if profile.remote != nil { return "a remote voice" }
        if profile.kokoro != nil { return "a Kokoro voice" }
        if profile.piper != nil { return "a Piper voice" }
        return "an eSpeak NG voice"
    }

    /// Whether two voices are of one engine (a Piper voice's sample rate is checked as its
    /// audio comes).
    private static func sameEngine(_ one: VoiceProfile, _ other: VoiceProfile) -> Bool {
        engine(of: one) == engine(of: other) && one.remote == other.remote
    }
}
