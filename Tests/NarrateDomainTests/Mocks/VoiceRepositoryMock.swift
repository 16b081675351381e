import NarrateDomain
import Synchronization

/// A `VoiceRepositoryContract` answering from `voicesResult` and `profileResult` (failures by default).
final class VoiceRepositoryMock: VoiceRepositoryContract {
    private struct State {
        var voicesResult: Result<[Voice], SpeechError> = .failure(.engineUnavailable(reason: "VoiceRepositoryMock.voicesResult is not set"))
        var profileResult: Result<VoiceProfile, SpeechError> = .failure(.engineUnavailable(reason: "VoiceRepositoryMock.profileResult is not set"))
        var voicesCallCount = 0
        var requestedProfileNames: [String] = []
        var requestedNamings: [VoiceNaming] = []
    }

    private let state = Mutex(State())

    var voicesResult: Result<[Voice], SpeechError> {
        get { state.withLock { $0.voicesResult } }
        set { state.withLock { $0.voicesResult = newValue } }
    }

    var profileResult: Result<VoiceProfile, SpeechError> {
        get { state.withLock { $0.profileResult } }
        set { state.withLock { $0.profileResult = newValue } }
    }

    var voicesCallCount: Int { state.withLock { $0.voicesCallCount } }
    var profileCallCount: Int { state.withLock { $0.requestedProfileNames.count } }
    var lastRequestedProfileName: String? { state.withLock { $0.requestedProfileNames.last } }
    var requestedProfileNames: [String] { state.withLock { $0.requestedProfileNames } }
    var lastRequestedNaming: VoiceNaming? { state.withLock { $0.requestedNamings.last } }

    func voices() async throws(SpeechError) -> [Voice] {
        try state.withLock { state throws(SpeechError) in
            state.voicesCallCount += 1
            return try state.voicesResult.get()
        }
    }

    func profile(named name: String, naming: VoiceNaming) async throws(SpeechError) -> VoiceProfile {
        try state.withLock { state throws(SpeechError) in
            state.requestedProfileNames.append(name)
            state.requestedNamings.append(naming)
            return try state.profileResult.get()
        }
    }
}
