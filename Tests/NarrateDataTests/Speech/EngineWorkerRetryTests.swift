import Foundation
import Glibc
import NarrateDomain
import Testing

@testable import NarrateData

/// A text whose process dies with it is tried once more on a fresh process (issue 29): a crash
/// that does not come back, or a worker killed from outside, costs nothing; a text that crashes
/// twice fails in one line, and the texts after it are spoken.
@Suite("Worker processes: a crashed text is tried once more")
struct EngineWorkerRetryTests {
    static let text = "Madame Sosostris, famous clairvoyante, had a bad cold, nevertheless is known to be the wisest woman in Europe."

    @Test("A text whose process crashes once is spoken on its second try, equal to a fresh espeak-ng -w")
    func crashOnceIsRetried() async throws {
        // Given: a child that aborts on the marker, only the first time (the hook's flag file)
        let folder = try TemporaryDirectory()
        let flag = folder.path + "/crashed-once"
        let voice = VoiceProfile(voice: "en-us")
        let reference = try await ESpeakReference.samples(text: Self.text, voice: voice, in: folder, name: "retried")
        let sut = EngineWorkerSynthesizer(
            workers: 1, environment: EngineWorkerSynthesizerTests.environment(["NARRATE_WORKER_CRASH_ON": "Sosostris", "NARRATE_WORKER_HOOKS_ONCE": flag]))
        defer { sut.shutdown() }

        // When
        let audio = try await sut.synthesize(SpeechRequest(text: Self.text, voice: voice))

        // Then: it crashed once, was tried again, and its samples are espeak-ng's
        #expect(FileManager.default.fileExists(atPath: flag))
        #expect(sut.crashRetries == 1)
        #expect(audio.samples == reference)
    }

    @Test("A text that crashes on both tries fails in one line; the text after it is spoken")
    func crashTwiceFails() async throws {
        // Given
        let voice = VoiceProfile(voice: "en-us")
        let sut = EngineWorkerSynthesizer(workers: 1, environment: EngineWorkerSynthesizerTests.environment(["NARRATE_WORKER_CRASH_ON": "Sosostris"]))
        defer { sut.shutdown() }

        // When
        let error = await #expect(throws: SpeechError.self) { try await sut.synthesize(SpeechRequest(text: Self.text, voice: voice)) }
        let after = try await sut.synthesize(SpeechRequest(text: "And then the next one.", voice: voice))

        // Then
        guard case let .engineFailed(reason, text, _) = error else {
            Issue.record("expected engineFailed, got \(String(describing: error))")
            return
        }
        #expect(reason.hasPrefix("crashed (SIGABRT"))
        #expect(text == Self.text)
        #expect(!(try #require(error).description.contains("\n")))
        #expect(sut.crashRetries == 1)
        #expect(!after.samples.isEmpty)
    }

    @Test("A worker killed from outside with a text in hand: a new worker speaks that text")
    func killedWorkersTextIsRetried() async throws {
        // Given: the text hangs its first process only, so the worker has it in hand when killed
        let folder = try TemporaryDirectory()
        let flag = folder.path + "/hung-once"
        let voice = VoiceProfile(voice: "en-us")
        let reference = try await ESpeakReference.samples(text: Self.text, voice: voice, in: folder, name: "killed")
        let sut = EngineWorkerSynthesizer(
            workers: 1, environment: EngineWorkerSynthesizerTests.environment(["NARRATE_WORKER_HANG_ON": "Sosostris", "NARRATE_WORKER_HOOKS_ONCE": flag]))
        defer { sut.shutdown() }
        _ = try await sut.synthesize(SpeechRequest(text: "Ready.", voice: voice))
        let first = try #require(sut.workerProcessIDs.first)

        // When: the worker is killed while its child hangs on the text
        async let spoken = sut.synthesize(SpeechRequest(text: Self.text, voice: voice))
        while !FileManager.default.fileExists(atPath: flag) { try await Task.sleep(for: .milliseconds(20)) }
        kill(first, SIGKILL)
        let audio = try await spoken

        // Then
        #expect(audio.samples == reference)
        #expect(sut.crashRetries == 1)
        #expect(sut.workerProcessIDs.first != first)
    }
}
