import Foundation
import Glibc
import NarrateDomain
import Testing

@testable import NarrateData

/// The eSpeak engine through real `narrate-worker` processes, against the real `espeak-ng`.
@Suite("eSpeak synthesizer (worker processes)")
struct EngineWorkerSynthesizerTests {
    static let sentences = [
        "It was the best of times, it was the worst of times, it was the age of wisdom.",
        "Call me Ishmael. Some years ago, never mind how long precisely, I thought I would sail about a little.",
        "The quick brown fox jumps over the lazy dog!",
        "Is this the real life? Is this just fantasy? Caught in a landslide, no escape from reality.",
        "In 1851, 3.5 million people read 42 newspapers; see https://example.org for the 2nd edition.",
        "Le petit prince s'assit sur une pierre et leva les yeux vers le ciel.",
        "Der schnelle braune Fuchs springt über den faulen Hund. Zwölf Boxkämpfer jagen Viktor.",
        "She sells sea shells by the sea shore, and the shells she sells are surely sea shells.",
    ]

    /// The voices the chunks switch between: names, variants, languages and parameters.
    static let voices: [VoiceProfile] = [
        VoiceProfile(voice: "en-us"),
        VoiceProfile(voice: "en-us", rate: 260, pitch: 70),
        VoiceProfile(voice: "en+f3", rate: 150),
        VoiceProfile(voice: "fr", volume: 150),
        VoiceProfile(voice: "de", wordGap: 3),
    ]

    @Test("One worker, 200 chunks in random order with voice switches: each equals a fresh espeak-ng -w")
    func sameAudioWhateverCameBefore() async throws {
        // Given: every (text, voice) pair's reference, and 200 requests drawn from them in a seeded random order
        let folder = try TemporaryDirectory()
        let pairs = Self.sentences.enumerated().flatMap { index, text in
            Self.voices.indices.filter { ($0 + index) % 2 == 0 }.map { (text, Self.voices[$0]) }
        }
        var references: [[Int16]] = []
        for (index, (text, voice)) in pairs.enumerated() {
            references.append(try await ESpeakReference.samples(text: text, voice: voice, in: folder, name: "ref\(index)"))
        }
        var generator = SeededGenerator(seed: 9)
        let order = (0..<200).map { _ in Int.random(in: 0..<pairs.count, using: &generator) }
        let sut = EngineWorkerSynthesizer(workers: 1)
        defer { sut.shutdown() }

        // When
        var mismatches: [String] = []
        for index in order {
            let (text, voice) = pairs[index]
            let audio = try await sut.synthesize(SpeechRequest(text: text, voice: voice))
            if audio.samples != references[index] {
                mismatches.append("\(voice.voice)@\(voice.rate): \(text.prefix(30)) (\(audio.samples.count) samples, expected \(references[index].count))")
            }
        }

        // Then: sample for sample, and all of it by one worker process
        #expect(mismatches.isEmpty, "\(mismatches.count) of 200 differ: \(mismatches.prefix(5))")
        #expect(sut.workerProcessIDs.count == 1)
    }

    @Test("Several workers synthesize at once, each text still equal to espeak-ng -w")
    func parallelWorkers() async throws {
        // Given
        let folder = try TemporaryDirectory()
        let voice = VoiceProfile(voice: "en-us")
        var references: [[Int16]] = []
        for (index, text) in Self.sentences.prefix(5).enumerated() {
            references.append(try await ESpeakReference.samples(text: text, voice: voice, in: folder, name: "p\(index)"))
        }
        let sut = EngineWorkerSynthesizer(workers: 2)
        defer { sut.shutdown() }

        // When: ten requests in flight at once
        let results = try await withThrowingTaskGroup(of: (Int, [Int16]).self) { group in
            for index in 0..<10 {
                group.addTask { (index % 5, try await sut.synthesize(SpeechRequest(text: Self.sentences[index % 5], voice: voice)).samples) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        // Then
        #expect(results.count == 10)
        for (index, samples) in results {
            #expect(samples == references[index])
        }
        #expect(sut.workerProcessIDs.count == 2)
    }

    @Test("A crash costs one text: a one-line error naming it, and the same worker goes on")
    func crashCostsOneText() async throws {
        // Given: a worker whose child aborts on a marker, as eSpeak 1.51 does on some input
        let folder = try TemporaryDirectory()
        let voice = VoiceProfile(voice: "en-us")
        let reference = try await ESpeakReference.samples(text: Self.sentences[0], voice: voice, in: folder, name: "after")
        let sut = EngineWorkerSynthesizer(workers: 1, environment: Self.environment(["NARRATE_WORKER_CRASH_ON": "Madame Sosostris"]))
        defer { sut.shutdown() }
        _ = try await sut.synthesize(SpeechRequest(text: "A first text.", voice: voice))
        let worker = sut.workerProcessIDs

        // When
        let text = "Madame Sosostris, famous clairvoyante, had a bad cold, nevertheless is known to be the wisest woman in Europe."
        let error = await #expect(throws: SpeechError.self) { try await sut.synthesize(SpeechRequest(text: text, voice: voice)) }
        let after = try await sut.synthesize(SpeechRequest(text: Self.sentences[0], voice: voice))

        // Then
        guard case let .engineFailed(reason, failedText, _) = error else {
            Issue.record("expected engineFailed, got \(String(describing: error))")
            return
        }
        #expect(reason.hasPrefix("crashed (SIGABRT"))
        #expect(failedText == text)
        let message = try #require(error).description
        #expect(!message.contains("\n"))
        #expect(message.contains("\u{201C}Madame Sosostris, famous clairvoyante, had a bad cold, never\u{2026}\u{201D}"))
        #expect(after.samples == reference)
        #expect(sut.workerProcessIDs == worker)
    }

    @Test("eSpeak 1.51's own crash inputs cost one text, never the process")
    func realCrashVectors() async throws {
        // Given
        let sut = EngineWorkerSynthesizer(workers: 1)
        defer { sut.shutdown() }
        let voice = VoiceProfile(voice: "en-us")
        let hostile = [String(repeating: "s'", count: 220), "http://" + String(repeating: "a.", count: 50_000) + "com"]

        for text in hostile {
            // When
            let outcome: Result<SpeechAudio, SpeechError>
            do throws(SpeechError) {
                outcome = .success(try await sut.synthesize(SpeechRequest(text: text, voice: voice)))
            } catch {
                outcome = .failure(error)
            }

            // Then: audio (an eSpeak that handles it) or one text's failure, and the engine goes on
            if case let .failure(error) = outcome {
                guard case .engineFailed = error else {
                    Issue.record("expected engineFailed, got \(error)")
                    continue
                }
            }
            let next = try await sut.synthesize(SpeechRequest(text: "Still here.", voice: voice))
            #expect(!next.samples.isEmpty)
        }
    }

    @Test("A text that hangs is killed at its deadline and reported; the next one is spoken", .timeLimit(.minutes(10)))
    func hangIsKilledAtDeadline() async throws {
        // Given
        let limits = EngineWorkerSynthesizer.Limits(deadlineBase: .seconds(2), deadlinePerScalar: .zero)
        let sut = EngineWorkerSynthesizer(workers: 1, environment: Self.environment(["NARRATE_WORKER_HANG_ON": "forever"]), limits: limits)
        defer { sut.shutdown() }
        let voice = VoiceProfile(voice: "en-us")
        // The worker is started first: on a busy machine starting it can take longer than the bound.
        _ = try await sut.synthesize(SpeechRequest(text: "Ready.", voice: voice))
        let started = ContinuousClock.now

        // When
        let error = await #expect(throws: SpeechError.self) { try await sut.synthesize(SpeechRequest(text: "This goes on forever.", voice: voice)) }
        // Only the hang is timed: starting the worker and speaking the next text may be slow on a busy machine.
        let failedAfter = ContinuousClock.now - started
        let next = try await sut.synthesize(SpeechRequest(text: "Next.", voice: voice))

        // Then
        guard case let .engineFailed(reason, text, _) = error else {
            Issue.record("expected engineFailed, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("ran past its 2 s deadline"))
        #expect(text == "This goes on forever.")
        // The reason says the 2 s deadline stopped it. The time, seen from this task, only shows
        // it was not waited for: in a full run a task's next step can wait 90 s for a thread.
        #expect(failedAfter < .seconds(300))
        #expect(!next.samples.isEmpty)
    }

    @Test("Audio longer than the limit is refused, not buffered")
    func tooLong() async throws {
        // Given: at most 1 second per text
        let sut = EngineWorkerSynthesizer(workers: 1, limits: EngineWorkerSynthesizer.Limits(maxSeconds: 1))
        defer { sut.shutdown() }

        // When / Then
        await #expect(throws: SpeechError.audioTooLong(limitSeconds: 1)) {
            try await sut.synthesize(SpeechRequest(text: Self.sentences[1], voice: VoiceProfile(voice: "en-us")))
        }
    }

    @Test("A worker killed from outside fails what it had; the next text starts another")
    func killedWorkerIsReplaced() async throws {
        // Given
        let sut = EngineWorkerSynthesizer(workers: 1)
        defer { sut.shutdown() }
        let voice = VoiceProfile(voice: "en-us")
        _ = try await sut.synthesize(SpeechRequest(text: "Hello.", voice: voice))
        let first = try #require(sut.workerProcessIDs.first)

        // When
        kill(first, SIGKILL)
        try await Task.sleep(for: .milliseconds(200))
        let audio = try await sut.synthesize(SpeechRequest(text: "Hello again.", voice: voice))

        // Then
        #expect(!audio.samples.isEmpty)
        #expect(sut.workerProcessIDs.count == 1)
        #expect(sut.workerProcessIDs.first != first)
    }

    @Test("Stopping the engine right after a request, 40 times over, returns once the worker is gone and reaped")
    func shutdownWaitsForTheWorker() async throws {
        // Given: an engine that is started, asked once and stopped, again and again (as
        // `narrate phonemes` does before it exits)
        let voice = VoiceProfile(voice: "en-us")
        for _ in 0..<40 {
            let sut = EngineWorkerSynthesizer(workers: 1)
            _ = try await sut.synthesize(SpeechRequest(text: "Hello.", voice: voice))
            let worker = try #require(sut.workerProcessIDs.first)

            // When
            sut.shutdown()

            // Then: no process of that id is left, not even a zombie, and none runs for the engine
            #expect(kill(worker, 0) == -1 && errno == ESRCH)
            #expect(sut.workerProcessIDs.isEmpty)
        }
    }

    @Test("Voices and variants come from the engine's list")
    func voicesAndVariants() async throws {
        let sut = EngineWorkerSynthesizer(workers: 1)
        defer { sut.shutdown() }

        let voices = try await sut.voices()
        let variants = try await sut.variants()

        let english = try #require(voices.first { $0.identifier == "gmw/en-US" })
        #expect(english.languages.contains("en-us"))
        #expect(voices.count > 50)
        #expect(variants.contains("f3"))
    }

    @Test("A worker from another version of Narrate is refused at its hello, in one line that says what to do")
    func otherProtocolVersionIsRefused() async throws {
        // Given: a worker that greets as workers before protocol version 2 did (the field was 0)
        let folder = try TemporaryDirectory()
        let script = folder.path + "/old-worker"
        try TestFolder.writeExecutable("""
            #!/usr/bin/env python3
            import struct, sys
            version = b"1.51"
            sys.stdout.buffer.write(struct.pack("<IIQiiQIIII", 0x5257524E, 20, 0, 22050, 22050, 0, 0, 0, len(version), 0) + version)
            sys.stdout.buffer.flush()
            sys.stdin.buffer.read()
            """, to: script)
        let sut = EngineWorkerSynthesizer(workers: 1, executable: script)
        defer { sut.shutdown() }

        // When
        let error = await #expect(throws: SpeechError.self) { try await sut.synthesize(SpeechRequest(text: "Hello.", voice: VoiceProfile(voice: "en-us"))) }

        // Then
        let message = try #require(error).description
        #expect(message.contains("is from another version of Narrate (worker protocol 0, this one speaks 3)"), "\(message)")
        #expect(message.contains("install narrate and narrate-worker from the same build"))
        #expect(!message.contains("\n"))
    }

    @Test("A missing worker program is a clear error that says where it was looked for")
    func missingWorker() async throws {
        let sut = EngineWorkerSynthesizer(workers: 1, executable: "/nonexistent/narrate-worker")

        let error = await #expect(throws: SpeechError.self) { try await sut.synthesize(SpeechRequest(text: "Hello.", voice: VoiceProfile(voice: "en-us"))) }

        #expect(error?.description.contains("/nonexistent/narrate-worker is not an executable file") == true)
        #expect(error?.description.contains("NARRATE_WORKER") == true)
    }

    @Test("The locator finds the worker beside the running program")
    func locatorBesideProgram() throws {
        let found = try ESpeakWorkerLocator.locate(environment: [:]).get()

        #expect(found.hasSuffix("/narrate-worker"))
        #expect(ESpeakWorkerLocator.locate(environment: ["NARRATE_WORKER": "/nope"]).isFailure)
    }

    static func environment(_ extra: [String: String]) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(extra) { _, new in new }
    }
}

extension Result {
    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}

/// What `espeak-ng -w` writes for a text, as samples.
enum ESpeakReference {
    static func samples(text: String, voice: VoiceProfile, in folder: TemporaryDirectory, name: String) async throws -> [Int16] {
        let path = folder.path + "/\(name).wav"
        let arguments = ["-v", voice.voice, "-s", "\(voice.rate)", "-p", "\(voice.pitch)", "-a", "\(voice.volume)", "-g", "\(voice.wordGap)", "-w", path, text]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
        process.arguments = arguments
        try process.run()
        await withCheckedContinuation { continuation in
            Thread {
                process.waitUntilExit()
                continuation.resume()
            }.start()
        }
        try #require(process.terminationStatus == 0, "espeak-ng \(arguments) failed")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        // The PCM follows the "data" chunk header.
        let marker = Data("data".utf8)
        let range = try #require(data.range(of: marker))
        let body = data[(range.upperBound + 4)...]
        return body.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }
}

/// A small deterministic random source (SplitMix64), so the order is the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
