import NarrateDomain
import Synchronization

/// A `TTSRepositoryContract` that records every request and answers from `result`, or per
/// request from `audioForRequest`, optionally after a per-request delay.
final class TTSRepositoryMock: TTSRepositoryContract {
    typealias AudioForRequest = @Sendable (SpeechRequest) -> Result<SpeechAudio, SpeechError>
    typealias DelayForRequest = @Sendable (SpeechRequest) -> Duration?
    typealias PieceForRequest = @Sendable (SpeechRequest) -> Result<SpeechPiece, SpeechError>

    private struct State {
        var result: Result<SpeechAudio, SpeechError> = .failure(.engineUnavailable(reason: "TTSRepositoryMock.result is not set"))
        var audioForRequest: AudioForRequest?
        var pieceForRequest: PieceForRequest?
        var pieceRequests: [SpeechRequest] = []
        var delayForRequest: DelayForRequest?
        var cacheKeyResult: Result<String, SpeechError> = .failure(.engineUnavailable(reason: "TTSRepositoryMock.cacheKeyResult is not set"))
        var requests: [SpeechRequest] = []
        var cachePolicies: [CachePolicy] = []
        var completedRequests: [SpeechRequest] = []
        var cacheKeyRequests: [SpeechRequest] = []
        var flushCount = 0
    }

    private let state = Mutex(State())

    // MARK: - Configuration

    /// The answer to every request when `audioForRequest` is not set; a failure by default.
    var result: Result<SpeechAudio, SpeechError> {
        get { state.withLock { $0.result } }
        set { state.withLock { $0.result = newValue } }
    }

    /// A per-request answer, which takes precedence over `result`.
    var audioForRequest: AudioForRequest? {
        get { state.withLock { $0.audioForRequest } }
        set { state.withLock { $0.audioForRequest = newValue } }
    }

    /// The answer to `piece`; when not set, `piece` answers as `synthesize` does (as audio).
    var pieceForRequest: PieceForRequest? {
        get { state.withLock { $0.pieceForRequest } }
        set { state.withLock { $0.pieceForRequest = newValue } }
    }

    /// How long to wait before answering a request (`nil`: answer at once).
    var delayForRequest: DelayForRequest? {
        get { state.withLock { $0.delayForRequest } }
        set { state.withLock { $0.delayForRequest = newValue } }
    }

    var cacheKeyResult: Result<String, SpeechError> {
        get { state.withLock { $0.cacheKeyResult } }
        set { state.withLock { $0.cacheKeyResult = newValue } }
    }

    // MARK: - Call tracking

    /// Every request, in the order `synthesize` was called.
    var requests: [SpeechRequest] { state.withLock { $0.requests } }
    /// The cache policy of every call, in call order.
    var cachePolicies: [CachePolicy] { state.withLock { $0.cachePolicies } }
    /// Requests in the order their answers were ready (after any delay).
    var completedRequests: [SpeechRequest] { state.withLock { $0.completedRequests } }
    var synthesizeCallCount: Int { state.withLock { $0.requests.count } }
    var lastRequest: SpeechRequest? { state.withLock { $0.requests.last } }
    var lastCachePolicy: CachePolicy? { state.withLock { $0.cachePolicies.last } }
    var cacheKeyCallCount: Int { state.withLock { $0.cacheKeyRequests.count } }
    /// Every request `piece` was asked for, in call order.
    var pieceRequests: [SpeechRequest] { state.withLock { $0.pieceRequests } }

    /// How many times `flush()` was called.
    var flushCount: Int { state.withLock { $0.flushCount } }

    // MARK: - TTSRepositoryContract

    func flush() async {
        state.withLock { $0.flushCount += 1 }
    }

    func synthesize(_ request: SpeechRequest, cachePolicy: CachePolicy) async throws(SpeechError) -> SpeechAudio {
        let (audioForRequest, delayForRequest, result) = state.withLock { state in
            state.requests.append(request)
            state.cachePolicies.append(cachePolicy)
            return (state.audioForRequest, state.delayForRequest, state.result)
        }
        // The closures run outside the lock, so they may read the mock.
        if let delay = delayForRequest?(request) {
            try? await Task.sleep(for: delay)
        }
        let answer = audioForRequest?(request) ?? result
        state.withLock { $0.completedRequests.append(request) }
        return try answer.get()
    }

    func piece(_ request: SpeechRequest) async throws(SpeechError) -> SpeechPiece {
        let answer = state.withLock { state in
            state.pieceRequests.append(request)
            return state.pieceForRequest
        }
        guard let answer else { return .audio(try await synthesize(request, cachePolicy: .localFirst)) }
        return try answer(request).get()
    }

    func cacheKey(for request: SpeechRequest) async throws(SpeechError) -> String {
        try state.withLock { state throws(SpeechError) in
            state.cacheKeyRequests.append(request)
            return try state.cacheKeyResult.get()
        }
    }
}
