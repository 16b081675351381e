import CNarrateSystem
import Glibc
@testable import NarrateData
import NarrateDomain
import Testing

/// How the worker's frames become a request's answer.
@Suite struct WorkerAnswerTests {
    private typealias WorkerAnswer = ESpeakWorkerConnection.WorkerAnswer

    private static func failure(_ answer: WorkerAnswer) -> SpeechError? {
        if case let .failure(error) = answer { error } else { nil }
    }

    @Test("Given an audio frame with samples and a mark, when decoded, then the audio carries them at the frame's rate")
    func childAudio() {
        // Given
        var frame = narrate_worker_frame()
        frame.status = UInt32(NARRATE_WORKER_AUDIO.rawValue)
        frame.sample_rate = 22_050
        frame.mark_count = 1
        var mark = narrate_worker_mark(text_offset: 4, text_length: 5, sample_offset: 1_000)
        let payload = withUnsafeBytes(of: &mark) { Array($0) }

        // When
        let answer = WorkerAnswer(child: WorkerFrameReader.Message(frame: frame, samples: [1, 2, 3], payload: payload))

        // Then
        guard case let .audio(audio) = answer else {
            Issue.record("expected audio, got \(answer)")
            return
        }
        #expect(audio.sampleRate == 22_050)
        #expect(audio.samples == [1, 2, 3])
        #expect(audio.wordMarks == [WordMark(textOffset: 4, textLength: 5, sampleOffset: 1_000)])
    }

    @Test("Given an audio frame without samples, when decoded, then it is a malformed answer")
    func childAudioWithoutSamples() {
        var frame = narrate_worker_frame()
        frame.status = UInt32(NARRATE_WORKER_AUDIO.rawValue)

        let answer = WorkerAnswer(child: WorkerFrameReader.Message(frame: frame, samples: nil, payload: []))

        #expect(Self.failure(answer) == .engineUnavailable(reason: "the eSpeak worker sent a malformed answer"))
    }

    @Test("Given a crash with glibc's note, when the final frame comes, then it is a crash (worth one more try) whose reason names the signal and the note without its stars")
    func crashed() {
        let answer = WorkerAnswer.final(NARRATE_WORKER_CRASHED, detail: Int(SIGABRT), note: "*** buffer overflow detected ***: terminated", child: nil)

        guard case let .crashed(error) = answer else {
            Issue.record("expected a crash, got \(answer)")
            return
        }
        #expect(error == .engineFailed(reason: "crashed (SIGABRT: buffer overflow detected: terminated)", text: ""))
    }

    @Test("Given a deadline passed or a bad parameter, when the final frame comes, then the reason says which")
    func timedOutAndBadParameter() {
        let whole = WorkerAnswer.final(NARRATE_WORKER_TIMED_OUT, detail: 30_000, note: "", child: nil)
        let fraction = WorkerAnswer.final(NARRATE_WORKER_TIMED_OUT, detail: 2_500, note: "", child: nil)
        let pitch = WorkerAnswer.final(NARRATE_WORKER_BAD_PARAMETER, detail: 3, note: "", child: nil)

        #expect(Self.failure(whole) == .engineFailed(reason: "ran past its 30 s deadline and was stopped", text: ""))
        #expect(Self.failure(fraction) == .engineFailed(reason: "ran past its 2.5 s deadline and was stopped", text: ""))
        #expect(Self.failure(pitch) == .parameterOutOfRange(name: "pitch", value: 0, range: 0...Int(Int32.max)))
    }

    @Test("Given DONE, when the child sent an answer or nothing, then that answer is the request's, else it answered nothing")
    func done() {
        let listed = WorkerAnswer.final(NARRATE_WORKER_DONE, detail: 0, note: "", child: .list("en"))
        let nothing = WorkerAnswer.final(NARRATE_WORKER_DONE, detail: 0, note: "", child: nil)

        guard case .list("en") = listed else {
            Issue.record("expected the child's list, got \(listed)")
            return
        }
        #expect(Self.failure(nothing) == .engineUnavailable(reason: "the eSpeak worker answered nothing"))
    }
}
