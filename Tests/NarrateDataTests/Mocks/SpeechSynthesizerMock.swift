import NarrateDomain
import Synchronization

@testable import NarrateData

/// A `SpeechSynthesizerContract` answering from `result` and `descriptorResult` (failures by default).
final class SpeechSynthesizerMock: SpeechSynthesizerContract {
    static let notConfigured = SpeechError.engineUnavailable(reason: "SpeechSynthesizerMock is not configured")

    private struct State {
        var result: Result<SpeechAudio, SpeechError> = .failure(SpeechSynthesizerMock.notConfigured)
        var descriptorResult: Result<EngineDescriptor, SpeechError> = .failure(SpeechSynthesizerMock.notConfigured)
        var requests: [SpeechRequest] = []
        var descriptorCallCount = 0
        var acceptsPhonemes = true
    }

    private let state = Mutex(State())

    var result: Result<SpeechAudio, SpeechError> {
        get { state.withLock { $0.result } }
        set { state.withLock { $0.result = newValue } }
    }

    var descriptorResult: Result<EngineDescriptor, SpeechError> {
        get { state.withLock { $0.descriptorResult } }
        set { state.withLock { $0.descriptorResult = newValue } }
    }

    /// What `acceptsPhonemes` answers (true, as eSpeak).
    var readsPhonemes: Bool {
        get { state.withLock { $0.acceptsPhonemes } }
        set { state.withLock { $0.acceptsPhonemes = newValue } }
    }

    var acceptsPhonemes: Bool { readsPhonemes }

    /// Every request, in call order.
    var requests: [SpeechRequest] { state.withLock { $0.requests } }
    var synthesizeCallCount: Int { state.withLock { $0.requests.count } }
    var lastRequest: SpeechRequest? { state.withLock { $0.requests.last } }
    var descriptorCallCount: Int { state.withLock { $0.descriptorCallCount } }

    func descriptor() async throws(SpeechError) -> EngineDescriptor {
        try state.withLock { state throws(SpeechError) in
            state.descriptorCallCount += 1
            return try state.descriptorResult.get()
        }
    }

    func synthesize(_ request: SpeechRequest) async throws(SpeechError) -> SpeechAudio {
        try state.withLock { state throws(SpeechError) in
            state.requests.append(request)
            return try state.result.get()
        }
    }
}
