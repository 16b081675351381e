import CNarrateSystem
import Foundation
import Glibc
import NarrateDomain
import Synchronization

/// One `narrate-worker` process and the requests it has in hand.
///
/// Requests are written to the worker's standard input; a thread of this connection reads the
/// frames it answers with (`WorkerFrameReader`) and completes each request with a `WorkerAnswer`
/// when its final frame arrives. A worker that dies fails everything it had in hand; the pool starts
/// another.
final class ESpeakWorkerConnection: Sendable {
    /// What the worker said at start: eSpeak's version and sample rate.
    let version: String
    let sampleRate: Int
    let processID: Int32

    private let input: FileHandle
    private let output: FileHandle
    private let process: Process
    private let state = Mutex(State())
    private let writeLock = Mutex(())
    /// Left by the reader thread once the worker has exited and its requests are failed. Only
    /// that thread waits on `process`: Foundation's `Process.waitUntilExit` is not safe to call
    /// from two threads at once (both set and clear the process's run loop), which crashed
    /// `narrate phonemes` now and then as it stopped the engine.
    private let reading = DispatchGroup()

    private struct State {
        var nextID: UInt64 = 1
        var pending: [UInt64: Pending] = [:]
        /// Requests a caller was given this worker for and has not sent yet.
        var reserved = 0
        var closed: SpeechError?
    }

    private struct Pending {
        var continuation: CheckedContinuation<WorkerAnswer, Never>
        var answer: WorkerAnswer?
    }

    /// Starts `executable` and waits for its hello.
    /// - Throws: `SpeechError.engineUnavailable` when it cannot start or eSpeak cannot initialize.
    init(executable: String, environment: [String: String]?) throws(SpeechError) {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = []
        if let environment { process.environment = environment }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        // A worker that dies must not take this process with it through SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        do {
            try process.run()
        } catch {
            throw .engineUnavailable(reason: "could not start \(executable): \(error.localizedDescription)")
        }
        self.process = process
        self.input = input.fileHandleForWriting
        self.output = output.fileHandleForReading
        processID = process.processIdentifier
        let reader = WorkerFrameReader(fd: self.output.fileDescriptor)
        guard let hello = reader.next() else {
            process.waitUntilExit()
            throw .engineUnavailable(reason: "\(executable) exited at start (status \(process.terminationStatus))")
        }
        let text = String(decoding: hello.payload, as: UTF8.self)
        guard hello.frame.status == UInt32(NARRATE_WORKER_HELLO.rawValue) else {
            throw .engineUnavailable(reason: text.isEmpty ? "\(executable) did not start properly" : text)
        }
        guard hello.frame.protocol_version == NARRATE_WORKER_PROTOCOL_VERSION else {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            throw .engineUnavailable(reason: "\(executable) is from another version of Narrate (worker protocol \(hello.frame.protocol_version), this one speaks \(NARRATE_WORKER_PROTOCOL_VERSION)); install narrate and narrate-worker from the same build")
        }
        version = text
        sampleRate = Int(hello.frame.detail)
        reading.enter()
        let thread = Thread { [self] in
            self.readFrames(reader)
            self.reading.leave()
        }
        thread.name = "narrate.worker-reader"
        thread.start()
    }

    deinit {
        try? input.close()
    }

    /// How many requests the worker has in hand.
    var load: Int { state.withLock { $0.pending.count + $0.reserved } }

    /// Counts a request the caller is about to send, so the pool sends the next one elsewhere.
    func reserve() {
        state.withLock { $0.reserved += 1 }
    }

    /// False once the worker has died or been closed.
    var isAlive: Bool { state.withLock { $0.closed == nil } }

    /// Sends one request and waits for its answer.
    /// - Parameter entry: where the child is to write the audio as a cache entry (it then
    ///   answers `.stored`, or `.audio` if it could not).
    /// - Parameter voiceName: the voice as the worker is to read it, where it is not
    ///   `voice.voice` (a Piper voice's description).
    func send(kind: narrate_worker_kind, voice: VoiceProfile?, voiceName: String? = nil, text: String, isSSML: Bool, phonemeInput: Bool = false, entry: EntryDraft? = nil, deadline: Duration, maxSamples: Int) async -> WorkerAnswer {
        await withCheckedContinuation { (continuation: CheckedContinuation<WorkerAnswer, Never>) in
            let admitted = state.withLock { state -> Result<UInt64, SpeechError> in
                state.reserved = max(0, state.reserved - 1)
                if let closed = state.closed { return .failure(closed) }
                let id = state.nextID
                state.nextID += 1
                state.pending[id] = Pending(continuation: continuation)
                return .success(id)
            }
            let id: UInt64
            switch admitted {
            case let .failure(error):
                continuation.resume(returning: .crashed(error))  // the worker died before it
                return
            case let .success(admittedID):
                id = admittedID
            }
            let milliseconds = deadline.components.seconds * 1000 + deadline.components.attoseconds / 1_000_000_000_000_000
            var request = narrate_worker_request()
            request.magic = NARRATE_WORKER_REQUEST_MAGIC
            request.kind = kind.rawValue
            request.id = id
            request.flags = (isSSML ? NARRATE_WORKER_FLAG_SSML.rawValue : 0) | (phonemeInput ? NARRATE_WORKER_FLAG_PHONEMES.rawValue : 0)
                | (entry != nil ? NARRATE_WORKER_FLAG_ENTRY.rawValue : 0)
            request.rate = Int32(clamping: voice?.rate ?? 0)
            request.volume = Int32(clamping: voice?.volume ?? 0)
            request.pitch = Int32(clamping: voice?.pitch ?? 0)
            request.word_gap = Int32(clamping: voice?.wordGap ?? 0)
            request.deadline_ms = UInt32(clamping: milliseconds)
            request.max_samples = UInt64(max(0, maxSamples))
            let voiceBytes = Array((voiceName ?? voice?.voice ?? "").utf8)
            let textBytes = Array(text.utf8)
            let pathBytes = Array((entry?.path ?? "").utf8)
            request.voice_length = UInt32(voiceBytes.count)
            request.text_length = UInt32(textBytes.count)
            request.entry_path_length = UInt32(pathBytes.count)
            if let entry {
                withUnsafeMutableBytes(of: &request.entry_key) { $0.copyBytes(from: entry.key.bytes) }
            }
            var message = withUnsafeBytes(of: &request) { Array($0) }
            message += voiceBytes
            message += textBytes
            message += pathBytes
            if !write(message) {
                // The reader sees the worker's end and fails every request it had, this one too.
                close(because: .engineUnavailable(reason: "the eSpeak worker stopped taking requests"))
            }
        }
    }

    /// Closes the worker's input: it finishes what it has in hand and exits.
    func finish() {
        try? input.close()
    }

    /// Waits for the worker process to exit (after `finish`), as the reader thread sees it.
    func waitUntilExit() {
        reading.wait()
    }

    // MARK: - Private

    private func write(_ bytes: [UInt8]) -> Bool {
        writeLock.withLock { _ in
            let fd = input.fileDescriptor
            return bytes.withUnsafeBytes { buffer -> Bool in
                var offset = 0
                while offset < buffer.count {
                    let count = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                    if count < 0 {
                        if errno == EINTR { continue }
                        return false
                    }
                    offset += count
                }
                return true
            }
        }
    }

    private func readFrames(_ reader: WorkerFrameReader) {
        while let message = reader.next() {
            let frame = message.frame
            let status = narrate_worker_status(frame.status)
            switch status {
            case NARRATE_WORKER_AUDIO, NARRATE_WORKER_STORED, NARRATE_WORKER_LIST, NARRATE_WORKER_SYNTH_FAILED, NARRATE_WORKER_TOO_LONG:
                let answer = WorkerAnswer(child: message)
                state.withLock { $0.pending[frame.id]?.answer = answer }
            default:
                let pending = state.withLock { $0.pending.removeValue(forKey: frame.id) }
                guard let pending else { continue }
                let note = String(decoding: message.payload, as: UTF8.self)
                pending.continuation.resume(returning: WorkerAnswer.final(status, detail: Int(frame.detail), note: note, child: pending.answer))
            }
        }
        process.waitUntilExit()
        let reason = process.terminationReason == .uncaughtSignal
            ? "the eSpeak worker was killed (signal \(process.terminationStatus))"
            : "the eSpeak worker exited (status \(process.terminationStatus))"
        close(because: .engineUnavailable(reason: reason))
    }

    private func close(because error: SpeechError) {
        let failed = state.withLock { state -> [Pending] in
            if state.closed == nil { state.closed = error }
            defer { state.pending = [:] }
            return Array(state.pending.values)
        }
        for pending in failed {
            pending.continuation.resume(returning: .crashed(error))
        }
    }
}
