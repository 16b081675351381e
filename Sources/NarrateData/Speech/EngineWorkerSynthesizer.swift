import CESpeakNG
import CNarrateSystem
import Foundation
import NarrateDomain
import Synchronization

/// Speech from the engines in `narrate-worker` processes: eSpeak NG, Piper voices
/// (`VoiceProfile.piper`) and Kokoro voices (`VoiceProfile.kokoro`). Named for the workers, not for one engine: every engine the worker
/// dispatches to is spoken through here. A Piper voice's worker phonemizes with eSpeak NG and runs the
/// model with ONNX Runtime; its zygote loads the model once, and a child speaks each text.
///
/// libespeak-ng carries state from one synthesis to the next, is not thread-safe and aborts on
/// some input (1.51), so it never synthesizes in this process: each text goes to a worker that
/// forks a fresh child for it. Every text's samples are therefore what a fresh
/// `espeak-ng -w` writes for it, whatever was synthesized before; a crash or a hang costs that
/// one text (`SpeechError.engineFailed`); and `workers` texts are synthesized at once.
public final class EngineWorkerSynthesizer: SpeechSynthesizerContract {
    /// eSpeak NG's output rate (its voices all speak at 22,050 Hz).
    public static let sampleRate = 22_050
    /// The longest eSpeak voice name taken (a request's voice field is larger: it also carries
    /// a Piper voice's description).
    static let maxVoiceNameBytes = 256

    private let pool: ESpeakWorkerPool
    private let limits: Limits
    /// The Piper voices loaded so far (each model hashed once).
    private let piperVoices: PiperVoiceCatalog
    /// Where the workers keep Piper models in ONNX Runtime's format, mapped and shared by all of
    /// them (`nil`: each loads its own copy).
    private let piperModelFolder: String?
    /// The Kokoro voices installed (each model and pack hashed once).
    private let kokoroVoices: KokoroVoiceCatalog

    /// How long one text may take and how long its audio may be.
    public struct Limits: Sendable {
        /// A text's deadline is `deadlineBase` plus `deadlinePerScalar` for each of its
        /// characters: generous, since eSpeak speaks hundreds of characters in milliseconds.
        public var deadlineBase: Duration
        public var deadlinePerScalar: Duration
        /// The longest audio one text may give.
        public var maxSeconds: Int
        /// A Piper voice's deadline per character: a neural voice takes about 60 times
        /// eSpeak's time.
        public var piperDeadlinePerScalar: Duration = .milliseconds(40)
        /// A Kokoro voice's: its model costs about 8 times a Piper voice's.
        public var kokoroDeadlinePerScalar: Duration = .milliseconds(250)

        public init(deadlineBase: Duration = .seconds(10), deadlinePerScalar: Duration = .milliseconds(10), maxSeconds: Int = 30 * 60) {
            self.deadlineBase = deadlineBase
            self.deadlinePerScalar = deadlinePerScalar
            self.maxSeconds = maxSeconds
        }

        func deadline(for text: String, voice: VoiceProfile? = nil) -> Duration {
            let perScalar = voice?.kokoro != nil ? kokoroDeadlinePerScalar : voice?.piper != nil ? piperDeadlinePerScalar : deadlinePerScalar
            return deadlineBase + perScalar * min(text.unicodeScalars.count, 100_000_000)
        }
    }

    /// - Parameters:
    ///   - workers: how many texts may be synthesized at once (worker processes).
    ///   - executable: the `narrate-worker` program; by default found by `ESpeakWorkerLocator`.
    ///   - environment: the workers' environment (by default this process's).
    ///   - piperVoices: where Piper voices are loaded from (one catalog may serve several synthesizers).
    ///   - piperModelFolder: where the workers may keep Piper and Kokoro models converted to ONNX
    ///     Runtime's format, so that every worker maps the same weights (the audio cache's `models/`).
    ///   - kokoroVoices: where Kokoro voices are loaded from.
    public init(
        workers: Int = ProcessInfo.processInfo.activeProcessorCount, executable: String? = nil, environment: [String: String]? = nil, limits: Limits = Limits(),
        piperVoices: PiperVoiceCatalog = PiperVoiceCatalog(directories: []), piperModelFolder: String? = nil,
        kokoroVoices: KokoroVoiceCatalog = KokoroVoiceCatalog(directories: [])
    ) {
        self.kokoroVoices = kokoroVoices
        self.piperModelFolder = piperModelFolder.flatMap { folder in
            (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil ? folder : nil
        }
        pool = ESpeakWorkerPool(count: workers, executable: ESpeakWorkerLocator.locate(explicit: executable), environment: environment)
        self.limits = limits
        self.piperVoices = piperVoices
        let version = espeak_Info(nil).map { String(cString: $0) } ?? "unknown"
        engine = EngineDescriptor(id: "espeak-ng", version: version, sampleRate: Self.sampleRate)
    }

    /// The engine's identity, read once: every cache key needs it.
    private let engine: EngineDescriptor

    /// How many texts this synthesizer works on at once.
    public var workerCount: Int { pool.count }

    public var concurrency: Int { pool.count }

    /// The engine's identity. The version is the library's own (`espeak_Info`, which reads no
    /// state and synthesizes nothing), read when the synthesizer is made: a cache hit needs no
    /// worker and waits for nothing.
    public func descriptor() throws(SpeechError) -> EngineDescriptor {
        engine
    }

    /// A Piper voice's audio is its model's: the engine is `piper`, and its version names the
    /// eSpeak NG that phonemizes, the model's and configuration's SHA-256 and the settings.
    /// A Kokoro voice's is `kokoro`, with the model's and packs' SHA-256, the weights and speed.
    public func descriptor(for request: SpeechRequest) async throws(SpeechError) -> EngineDescriptor {
        if let kokoro = request.voice.kokoro {
            let (model, packs) = try kokoroParts(kokoro)
            let speed = KokoroVoiceSettings.speed(rate: request.voice.rate)
            return EngineDescriptor(id: "kokoro", version: "espeak-ng \(engine.version) \(model.identity(kokoro, packs: packs, speed: speed))", sampleRate: Self.kokoroSampleRate)
        }
        guard let piper = request.voice.piper else { return engine }
        let voice = try piperVoices.voice(model: piper.model)
        let resolved = try voice.resolve(request.voice)
        return EngineDescriptor(id: "piper", version: "espeak-ng \(engine.version) \(voice.identity(resolved))", sampleRate: voice.config.audio.sampleRate)
    }

    public func narrator(speaking voice: VoiceProfile) -> String {
        if let kokoro = voice.kokoro { return "Kokoro \(kokoro.name)" }
        guard let piper = voice.piper else { return "eSpeak NG \(voice.voice)" }
        return "Piper \(PiperVoice.name(model: piper.model))"
    }

    /// Piper and Kokoro voices are timed by sentence (their models give no word timing).
    public func timing(for voice: VoiceProfile) -> SpeechTiming {
        voice.isNeural ? .sentences : .words
    }

    /// Kokoro-82M's output rate.
    public static let kokoroSampleRate = 24_000

    /// A Kokoro voice's model and packs, hashed.
    private func kokoroParts(_ kokoro: KokoroVoiceSettings) throws(SpeechError) -> (KokoroModel, [KokoroModel.Pack]) {
        (try kokoroVoices.model(at: kokoro.model), try kokoroVoices.packs(of: kokoro))
    }

    public func synthesize(_ request: SpeechRequest) async throws(SpeechError) -> SpeechAudio {
        switch try await answer(request, entry: nil) {
        case let .audio(audio):
            return audio
        case .stored, .list:
            throw .engineUnavailable(reason: "the eSpeak worker answered no audio to a synthesis")
        case let .failure(error), let .crashed(error):
            throw describe(error, for: request)
        }
    }

    /// The worker's child writes the entry itself: the audio never comes through the pipe.
    public func synthesize(_ request: SpeechRequest, into draft: EntryDraft) async throws(SpeechError) -> SynthesisOutcome {
        guard draft.path.utf8.count <= Int(NARRATE_WORKER_MAX_PATH_BYTES) else { return .audio(try await synthesize(request)) }
        switch try await answer(request, entry: draft) {
        case let .audio(audio):
            return .audio(audio)
        case let .stored(sampleRate, sampleCount, marks):
            return .storedEntry(sampleRate: sampleRate, sampleCount: sampleCount, wordMarks: marks)
        case .list:
            throw .engineUnavailable(reason: "the eSpeak worker answered a list to a synthesis")
        case let .failure(error), let .crashed(error):
            throw describe(error, for: request)
        }
    }

    func answer(_ request: SpeechRequest, entry: EntryDraft?, kind: narrate_worker_kind = NARRATE_WORKER_SYNTHESIZE) async throws(SpeechError) -> ESpeakWorkerConnection.WorkerAnswer {
        guard !request.text.isEmpty else { throw .emptyText }
        guard request.text.utf8.count <= Int(NARRATE_WORKER_MAX_TEXT_BYTES), request.voice.voice.utf8.count <= Self.maxVoiceNameBytes else {
            throw .synthesisFailed(code: Int(EE_BUFFER_FULL.rawValue), voice: request.voice.voice, textLength: request.text.unicodeScalars.count)
        }
        var voiceName: String?
        var sampleRate = Self.sampleRate
        if let kokoro = request.voice.kokoro {
            let (model, packs) = try kokoroParts(kokoro)
            let description = model.workerDescription(kokoro, packs: packs, speed: KokoroVoiceSettings.speed(rate: request.voice.rate), modelFolder: piperModelFolder)
            guard description.utf8.count <= Int(NARRATE_WORKER_MAX_VOICE_BYTES) else {
                throw .voiceFailed(voice: kokoro.name, reason: "its vocabulary is larger than \(NARRATE_WORKER_MAX_VOICE_BYTES >> 10) KiB")
            }
            voiceName = description
            sampleRate = Self.kokoroSampleRate
        } else if let piper = request.voice.piper {
            let voice = try piperVoices.voice(model: piper.model)
            voiceName = voice.workerDescription(try voice.resolve(request.voice), modelFolder: piperModelFolder)
            sampleRate = voice.config.audio.sampleRate
            guard voiceName!.utf8.count <= Int(NARRATE_WORKER_MAX_VOICE_BYTES) else {
                throw .voiceFailed(voice: voice.name, reason: "its phoneme_id_map is larger than \(NARRATE_WORKER_MAX_VOICE_BYTES >> 10) KiB")
            }
        }
        let send = { [limits] (worker: ESpeakWorkerConnection) in
            await worker.send(
                kind: kind, voice: request.voice, voiceName: voiceName, text: request.text, isSSML: request.isSSML,
                phonemeInput: request.phonemeInput, entry: entry, deadline: limits.deadline(for: request.text, voice: request.voice),
                maxSamples: limits.maxSeconds * sampleRate
            )
        }
        let first = await send(try pool.worker())
        guard case .crashed = first else { return first }
        // The process that had the text died with it: a new one tries once more (a process
        // killed from outside costs nothing), and a text that crashes twice fails.
        retries.withLock { $0 += 1 }
        switch await send(try pool.worker()) {
        case let .crashed(error):
            return .failure(error)
        case let second:
            return second
        }
    }

    /// How many texts were tried a second time after the process that had them died.
    public var crashRetries: Int { retries.withLock { $0 } }
    private let retries = Mutex(0)

    /// Starts the worker processes now rather than at the first text, so their start-up
    /// overlaps the caller's own preparation.
    public func prestart() throws(SpeechError) {
        try pool.prestart()
    }

    /// Ends the worker processes and waits for them; later requests start new ones.
    public func shutdown() {
        pool.shutdown()
    }

    /// The worker processes running now.
    public var workerProcessIDs: [Int32] { pool.processIDs }

    /// How many worker processes were found dead (crashed or killed) and replaced.
    public var workerRestarts: Int { pool.restarts }

    /// Every voice the engine offers (`espeak_ListVoices`), variants excluded.
    public func voices() async throws(SpeechError) -> [Voice] {
        try await list(NARRATE_WORKER_LIST_VOICES).map { fields in
            let gender: Voice.Gender = switch fields[2] {
            case "1": .male
            case "2": .female
            default: .unspecified
            }
            // eSpeak's own names may end in a space ("Cherokee "): a name is what a user types.
            let name = String(fields[0].reversed().drop { $0 == " " }.reversed())
            return Voice(name: name, identifier: fields[1], languages: fields[3].split(separator: ",").map(String.init), gender: gender)
        }
    }

    /// The names of the voice variants (`en+f3`: the part after `+`).
    public func variants() async throws(SpeechError) -> [String] {
        try await list(NARRATE_WORKER_LIST_VARIANTS).map { fields in
            fields[1].split(separator: "/").last.map(String.init) ?? fields[1]
        }
    }

    // MARK: - Private

    private func list(_ kind: narrate_worker_kind) async throws(SpeechError) -> [[String]] {
        let worker = try pool.worker()
        switch await worker.send(kind: kind, voice: nil, text: "", isSSML: false, deadline: limits.deadlineBase, maxSamples: 0) {
        case let .list(text):
            return text.split(separator: "\n").compactMap { line in
                let fields = line.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
                return fields.count == 4 ? fields : nil
            }
        case .audio, .stored:
            throw .engineUnavailable(reason: "the eSpeak worker answered audio to a voice listing")
        case let .failure(error), let .crashed(error):
            throw error
        }
    }

    /// The worker's error with what only the request knows: the voice, the text, the limits.
    func describe(_ error: SpeechError, for request: SpeechRequest) -> SpeechError {
        switch error {
        case .voiceNotFound:
            .voiceNotFound(request.voice.voice, suggestions: [])
        case let .voiceFailed(_, reason):
            .voiceFailed(voice: request.voice.kokoro?.name ?? request.voice.piper.map { PiperVoice.name(model: $0.model) } ?? request.voice.voice, reason: reason)
        case let .parameterOutOfRange(name, _, range):
            .parameterOutOfRange(name: name, value: Self.value(of: name, in: request.voice), range: range)
        case let .synthesisFailed(code, _, _):
            .synthesisFailed(code: code, voice: request.voice.voice, textLength: request.text.unicodeScalars.count)
        case let .engineFailed(reason, _, _):
            // A Piper or Kokoro voice's child failing is the voice's failure, not eSpeak NG's.
            .engineFailed(reason: reason, text: request.text, engine: Self.engineName(speaking: request.voice))
        case .audioTooLong:
            .audioTooLong(limitSeconds: limits.maxSeconds)
        default:
            error
        }
    }

    /// How a failure names what failed: the neural voice, or eSpeak NG.
    static func engineName(speaking voice: VoiceProfile) -> String {
        if let kokoro = voice.kokoro { return "The Kokoro voice " + kokoro.name }
        return voice.piper.map { "The Piper voice " + PiperVoice.name(model: $0.model) } ?? "eSpeak NG"
    }

    private static func value(of parameter: String, in voice: VoiceProfile) -> Int {
        switch parameter {
        case "rate": voice.rate
        case "volume": voice.volume
        case "pitch": voice.pitch
        default: voice.wordGap
        }
    }
}
