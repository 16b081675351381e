import CESpeakNG
import NarrateDomain
import Synchronization

/// The one owner of libespeak-ng's process-global state.
///
/// Initialized on first use with `AUDIO_OUTPUT_SYNCHRONOUS` and `espeakINITIALIZE_DONT_EXIT`
/// and never terminated. Every entry point holds `lock` for the whole call.
final class ESpeakLibrary: Sendable {
    let sampleRate: Int
    let version: String
    /// The voice profile eSpeak was last set to, under `lock`.
    private let lock = Mutex<VoiceProfile?>(nil)

    private static let instance = Mutex<Result<ESpeakLibrary, SpeechError>?>(nil)

    /// The process's library, initialized on the first call.
    static func shared() throws(SpeechError) -> ESpeakLibrary {
        let result = instance.withLock { state -> Result<ESpeakLibrary, SpeechError> in
            if let state { return state }
            let created = Result { () throws(SpeechError) -> ESpeakLibrary in try ESpeakLibrary() }
            state = created
            return created
        }
        return try result.get()
    }

    private init() throws(SpeechError) {
        let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, narrate_espeak_initialize_dont_exit())
        guard rate > 0 else {
            throw .engineUnavailable(reason: "espeak_Initialize returned \(rate) (is espeak-ng-data installed?)")
        }
        espeak_SetSynthCallback(espeakSynthCallback)
        sampleRate = Int(rate)
        if let info = espeak_Info(nil) {
            version = String(cString: info)
        } else {
            version = "unknown"
        }
    }

    func synthesize(_ request: SpeechRequest) throws(SpeechError) -> SpeechAudio {
        let text = request.text
        guard !text.isEmpty else { throw .emptyText }
        return try lock.withLock { current throws(SpeechError) -> SpeechAudio in
            // Voice and parameters are process-global. This object is their only writer, so
            // when the last request set the same profile they are still in force: loading the
            // voice again for every chunk costs more than a tenth of the synthesis.
            if current != request.voice {
                current = nil
                try apply(request.voice)
                current = request.voice
            }
            let sink = SynthesisSink(sampleRate: sampleRate, expectedSamples: Self.estimatedSamples(for: text, rate: request.voice.rate, sampleRate: sampleRate))
            let context = Unmanaged.passRetained(sink)
            defer { context.release() }
            var flags = narrate_espeak_flags_utf8() | narrate_espeak_flag_endpause()
            if request.isSSML { flags |= narrate_espeak_flag_ssml() }
            let status = text.withCString { pointer in
                espeak_Synth(pointer, text.utf8.count + 1, 0, POS_CHARACTER, 0, flags, nil, context.toOpaque())
            }
            try validate(status, request: request)
            return sink.audio()
        }
    }

    func voices() throws(SpeechError) -> [Voice] {
        lock.withLock { current in
            current = nil  // listing voices may load voice data
            return Self.voiceList(espeak_ListVoices(nil))
        }
    }

    func variants() throws(SpeechError) -> [String] {
        lock.withLock { current in
            current = nil
            var spec = espeak_VOICE()
            return "variant".withCString { language in
                spec.languages = language
                return Self.voiceList(espeak_ListVoices(&spec)).map { $0.identifier.split(separator: "/").last.map(String.init) ?? $0.identifier }
            }
        }
    }

    // MARK: - Private

    private func apply(_ voice: VoiceProfile) throws(SpeechError) {
        // As the espeak-ng program does: a voice name first, else the name as a language.
        var status = voice.voice.withCString { espeak_SetVoiceByName($0) }
        if status != EE_OK {
            status = voice.voice.withCString { name in
                var properties = espeak_VOICE()
                properties.languages = name
                return espeak_SetVoiceByProperties(&properties)
            }
        }
        guard status == EE_OK else { throw .voiceNotFound(voice.voice, suggestions: []) }
        let parameters: [(espeak_PARAMETER, Int)] = [
            (espeakRATE, voice.rate), (espeakVOLUME, voice.volume), (espeakPITCH, voice.pitch), (espeakWORDGAP, voice.wordGap),
        ]
        for (parameter, value) in parameters {
            let result = espeak_SetParameter(parameter, Int32(value), 0)
            guard result == EE_OK else { throw .parameterOutOfRange(name: "\(parameter)", value: value, range: 0...Int(Int32.max)) }
        }
    }

    private func validate(_ status: espeak_ERROR, request: SpeechRequest) throws(SpeechError) {
        guard status == EE_OK else {
            throw .synthesisFailed(code: Int(status.rawValue), voice: request.voice.voice, textLength: request.text.unicodeScalars.count)
        }
    }

    /// A capacity guess that makes the sample buffer grow at most once for ordinary text
    /// (eSpeak speaks about 1,200 samples a character at 175 wpm and 22,050 Hz).
    private static func estimatedSamples(for text: String, rate: Int, sampleRate: Int) -> Int {
        let scalars = text.utf8.count
        let perCharacter = 1_300 * 175 / max(rate, 80) * sampleRate / 22_050
        return min(scalars * perCharacter + sampleRate, 64 * 1024 * 1024)
    }

    private static func voiceList(_ list: UnsafeMutablePointer<UnsafePointer<espeak_VOICE>?>?) -> [Voice] {
        guard var cursor = list else { return [] }
        var voices: [Voice] = []
        while let voice = cursor.pointee {
            voices.append(Self.voice(from: voice.pointee))
            cursor += 1
        }
        return voices
    }

    private static func voice(from raw: espeak_VOICE) -> Voice {
        let name = raw.name.map { String(cString: $0) } ?? ""
        let identifier = raw.identifier.map { String(cString: $0) } ?? ""
        var languages: [String] = []
        if var pointer = raw.languages {
            // A list of (priority byte, NUL-terminated name), ended by an empty name.
            while pointer.pointee != 0 {
                pointer += 1
                let language = String(cString: pointer)
                if language.isEmpty { break }
                languages.append(language)
                pointer += language.utf8.count + 1
            }
        }
        let gender: Voice.Gender = switch raw.gender {
        case 1: .male
        case 2: .female
        default: .unspecified
        }
        return Voice(name: name, identifier: identifier, languages: languages, gender: gender)
    }
}

/// Collects one synthesis' samples and word marks; reached from the C callback via `user_data`.
final class SynthesisSink: @unchecked Sendable {
    // Only touched by the thread inside `espeak_Synth`, under ESpeakLibrary's lock.
    private var samples: [Int16]
    private var marks: [WordMark] = []
    private var sampleRate: Int

    init(sampleRate: Int, expectedSamples: Int) {
        self.sampleRate = sampleRate
        samples = []
        samples.reserveCapacity(expectedSamples)
    }

    func append(_ buffer: UnsafeBufferPointer<Int16>) {
        samples.append(contentsOf: buffer)
    }

    func event(_ event: espeak_EVENT) {
        switch event.type {
        case espeakEVENT_WORD where event.length > 0:
            // text_position is 1-based, in Unicode scalars; `sample` counts samples since the start.
            marks.append(WordMark(textOffset: Int(event.text_position) - 1, textLength: Int(event.length), sampleOffset: Int(event.sample)))
        case espeakEVENT_SAMPLERATE:
            sampleRate = Int(event.id.number)
        default:
            break
        }
    }

    func audio() -> SpeechAudio {
        SpeechAudio(sampleRate: sampleRate, samples: samples, wordMarks: marks)
    }
}

/// The synthesis callback: captures nothing, finds its sink through the events' `user_data`.
private func espeakSynthCallback(_ wave: UnsafeMutablePointer<Int16>?, _ count: Int32, _ events: UnsafeMutablePointer<espeak_EVENT>?) -> Int32 {
    guard let events, let context = events.pointee.user_data else { return 0 }
    let sink = Unmanaged<SynthesisSink>.fromOpaque(context).takeUnretainedValue()
    var event = events
    while event.pointee.type != espeakEVENT_LIST_TERMINATED {
        sink.event(event.pointee)
        event += 1
    }
    if let wave, count > 0 {
        sink.append(UnsafeBufferPointer(start: wave, count: Int(count)))
    }
    return 0
}
