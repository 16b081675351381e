import ArgumentParser
import Foundation
import Logging
import NarrateKit

/// Options every speaking command takes: the voice, its parameters, the cache and logging.
struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: "A preset from voices/ (default: narrator), an installed Kokoro voice or blend (af_heart, af_heart:0.6+bf_emma:0.4), an installed Piper voice, a Piper model's path (path/to/x.onnx) or an eSpeak voice (en-us, fr, de, en+f3). See 'narrate voices'.")
    var voice: String?

    @Option(name: [.short, .long], help: "Speaking rate in words per minute (80–450).")
    var rate: Int?

    @Option(name: [.short, .long], help: "Pitch (0–99).")
    var pitch: Int?

    @Option(name: .long, help: "Volume (0–200, 100 is normal).")
    var volume: Int?

    @Option(name: .customLong("word-gap"), help: "Extra pause between words, in units of 10 ms.")
    var wordGap: Int?

    // Optional rather than defaulted: a default would be printed as the build machine's core count.
    @Option(name: [.short, .long], help: "Texts synthesized at once, each in an eSpeak worker process (default: the number of cores).")
    var jobs: Int?

    @OptionGroup var pronunciation: PronunciationOptions

    @OptionGroup var remote: RemoteOptions

    @Option(name: .customLong("api-key-file"), help: "The remote API's key, on the file's first line, when neither NARRATE_API_KEY nor OPENAI_API_KEY is set.")
    var apiKeyFile: String?

    @OptionGroup var storage: StorageOptions

    @Flag(name: .customLong("no-cache"), help: "Neither read nor write the audio cache.")
    var noCache = false

    var overrides: VoiceOverrides {
        VoiceOverrides(rate: rate, pitch: pitch, volume: volume, wordGap: wordGap)
    }

    /// `--jobs`, else the number of cores.
    var jobCount: Int {
        jobs ?? ProcessInfo.processInfo.activeProcessorCount
    }

    func validate() throws {
        if let rate, !VoiceProfile.rateRange.contains(rate) { throw ValidationError("--rate must be from 80 to 450 (got \(rate)).") }
        if let pitch, !VoiceProfile.pitchRange.contains(pitch) { throw ValidationError("--pitch must be from 0 to 99 (got \(pitch)).") }
        if let volume, !VoiceProfile.volumeRange.contains(volume) { throw ValidationError("--volume must be from 0 to 200 (got \(volume)).") }
        if let wordGap, !VoiceProfile.wordGapRange.contains(wordGap) { throw ValidationError("--word-gap must be from 0 to 1000 (got \(wordGap)).") }
        if let jobs, jobs < 1 || jobs > 256 { throw ValidationError("--jobs must be from 1 to 256 (got \(jobs)).") }
    }

    /// The configuration these options give, with what `options` set on top.
    func configuration(_ options: any ConfigurationOptions...) -> NarrateConfiguration {
        var configuration = storage.configuration()
        if noCache { configuration.cacheDirectory = nil }
        configuration.engineWorkers = jobCount
        for option in options { option.apply(to: &configuration) }
        return configuration
    }

    /// The environment a speaking command narrates with: the configuration with the remote
    /// engine that `--remote` or the `--voice` preset names. The run's last line then says what
    /// was sent (`RunReport`).
    func environment(_ configuration: NarrateConfiguration) throws -> NarrateEnvironment {
        var configured = configuration
        let logger = storage.makeLogger()
        let preset = voice.flatMap { NarrateEnvironment(configuration: configuration, logger: logger).presetRemote(named: $0) }
        try remote.apply(to: &configured, preset: preset, keyFile: apiKeyFile, jobs: jobCount)
        let environment = NarrateEnvironment(configuration: configured, logger: logger)
        if let engine = configured.remote, let usage = environment.remoteUsage {
            RunReport.set { usage.summary(endpoint: engine.endpoint) }
            if pitch != nil || volume != nil || wordGap != nil {
                storage.report("The remote speech API takes no --pitch, --volume or --word-gap; they are left out.")
            }
        }
        return environment
    }

    /// The voice these options ask for: `--voice` (none: the book's language chooses), the
    /// parameters laid over it and the `--lexicon` files. The user runs this on their own
    /// machine, so `--voice` may name a model file by path (a remote client's voice may not).
    func voiceRequest() throws -> VoiceRequest {
        VoiceRequest(name: voice, overrides: overrides, lexicons: try pronunciation.lexicons(), naming: .catalogOrFile)
    }
}
