import CESpeakNG
import Dispatch
import NarrateDomain
import Synchronization

/// Speech from the eSpeak NG C library.
///
/// eSpeak's state is process-global and not thread-safe: two threads synthesizing at once
/// corrupt its heap, and Terminate followed by Initialize deadlocks in 1.51. So the library is
/// initialized once per process (`ESpeakLibrary`), every call goes through one process-wide
/// lock, and voice and parameters are set on every request because they are global too.
///
/// The actor runs on a thread of its own (`ESpeakExecutor`), not on Swift's cooperative pool:
/// a synthesis blocks for as long as eSpeak works, and the pool's few threads must stay free
/// to store the previous chunk and write it out meanwhile.
public actor ESpeakSynthesizer: SpeechSynthesizerContract {
    public init() {}

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        ESpeakExecutor.shared.asUnownedSerialExecutor()
    }

    public func descriptor() throws(SpeechError) -> EngineDescriptor {
        let library = try ESpeakLibrary.shared()
        return EngineDescriptor(id: "espeak-ng", version: library.version, sampleRate: library.sampleRate)
    }

    public func synthesize(_ request: SpeechRequest) throws(SpeechError) -> SpeechAudio {
        try ESpeakLibrary.shared().synthesize(request)
    }

    /// Every voice the engine offers (`espeak_ListVoices`), variants excluded.
    public func voices() throws(SpeechError) -> [Voice] {
        try ESpeakLibrary.shared().voices()
    }

    /// The names of the voice variants (`en+f3`: the part after `+`).
    public func variants() throws(SpeechError) -> [String] {
        try ESpeakLibrary.shared().variants()
    }
}

/// A serial executor on a dispatch queue of its own, shared by every `ESpeakSynthesizer` of the
/// process (eSpeak's state is process-wide).
final class ESpeakExecutor: SerialExecutor {
    static let shared = ESpeakExecutor()
    private let queue = DispatchQueue(label: "narrate.espeak", qos: .userInitiated)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
