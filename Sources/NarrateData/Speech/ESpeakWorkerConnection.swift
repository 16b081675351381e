import CNarrateSystem
import Foundation
import Glibc
import NarrateDomain
import Synchronization

/// One `narrate-worker` process and the requests it has in hand.
///
/// Requests are written to the worker's standard input; a thread of this connection reads the
/// frames it answers with (see `narrate_worker_protocol.h`) and completes each request when its
/// final frame arrives. A worker that dies fails everything it had in hand; the pool starts
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

    /// What the child that served a request sent, before the worker's final word on it.
    enum WorkerAnswer: Sendable {
        case audio(SpeechAudio)
        case list(String)
        case failure(SpeechError)
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
        let reader = FrameReader(fd: self.output.fileDescriptor)
        guard let hello = reader.next() else {
            process.waitUntilExit()
            throw .engineUnavailable(reason: "\(executable) exited at start (status \(process.terminationStatus))")
        }
        let text = String(decoding: hello.payload, as: UTF8.self)
        guard hello.frame.status == UInt32(NARRATE_WORKER_HELLO.rawValue) else {
            throw .engineUnavailable(reason: text.isEmpty ? "\(executable) did not start properly" : text)
        }
        version = text
        sampleRate = Int(hello.frame.detail)
        let thread = Thread { [self] in self.readFrames(reader) }
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
    func send(kind: narrate_worker_kind, voice: VoiceProfile?, text: String, isSSML: Bool, phonemeInput: Bool = false, deadline: Duration, maxSamples: Int) async -> WorkerAnswer {
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
                continuation.resume(returning: .failure(error))
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
            request.rate = Int32(clamping: voice?.rate ?? 0)
            request.volume = Int32(clamping: voice?.volume ?? 0)
            request.pitch = Int32(clamping: voice?.pitch ?? 0)
            request.word_gap = Int32(clamping: voice?.wordGap ?? 0)
            request.deadline_ms = UInt32(clamping: milliseconds)
            request.max_samples = UInt64(max(0, maxSamples))
            let voiceBytes = Array((voice?.voice ?? "").utf8)
            let textBytes = Array(text.utf8)
            request.voice_length = UInt32(voiceBytes.count)
            request.text_length = UInt32(textBytes.count)
            var message = withUnsafeBytes(of: &request) { Array($0) }
            message += voiceBytes
            message += textBytes
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

    /// Waits for the worker process to exit (after `finish`).
    func waitUntilExit() {
        process.waitUntilExit()
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

    private func readFrames(_ reader: FrameReader) {
        while let message = reader.next() {
            let frame = message.frame
            let status = narrate_worker_status(frame.status)
            switch status {
            case NARRATE_WORKER_AUDIO, NARRATE_WORKER_LIST, NARRATE_WORKER_SYNTH_FAILED, NARRATE_WORKER_TOO_LONG:
                let answer = Self.childAnswer(message)
                state.withLock { $0.pending[frame.id]?.answer = answer }
            default:
                let pending = state.withLock { $0.pending.removeValue(forKey: frame.id) }
                guard let pending else { continue }
                let note = String(decoding: message.payload, as: UTF8.self)
                pending.continuation.resume(returning: Self.finalAnswer(status, detail: Int(frame.detail), note: note, child: pending.answer))
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
            pending.continuation.resume(returning: .failure(error))
        }
    }

    private static func childAnswer(_ message: FrameReader.Message) -> WorkerAnswer {
        let frame = message.frame
        switch narrate_worker_status(frame.status) {
        case NARRATE_WORKER_AUDIO:
            guard let samples = message.samples else {
                return .failure(.engineUnavailable(reason: "the eSpeak worker sent a malformed answer"))
            }
            let markSize = MemoryLayout<narrate_worker_mark>.size
            let marks = message.payload.withUnsafeBytes { bytes in
                (0..<Int(frame.mark_count)).map { index in
                    let mark = bytes.loadUnaligned(fromByteOffset: index * markSize, as: narrate_worker_mark.self)
                    return WordMark(textOffset: Int(mark.text_offset), textLength: Int(mark.text_length), sampleOffset: Int(mark.sample_offset))
                }
            }
            return .audio(SpeechAudio(sampleRate: Int(frame.sample_rate), samples: samples, wordMarks: marks))
        case NARRATE_WORKER_LIST:
            return .list(String(decoding: message.payload, as: UTF8.self))
        case NARRATE_WORKER_TOO_LONG:
            return .failure(.audioTooLong(limitSeconds: 0))
        default:
            return .failure(.synthesisFailed(code: Int(frame.detail), voice: "", textLength: 0))
        }
    }

    /// - Parameter note: the last line the child wrote to its standard error, if it failed.
    private static func finalAnswer(_ status: narrate_worker_status, detail: Int, note: String, child: WorkerAnswer?) -> WorkerAnswer {
        // glibc's "*** buffer overflow detected ***: terminated" says it best without its stars.
        let cause = note.trimmingCharacters(in: CharacterSet(charactersIn: "* ")).replacingOccurrences(of: " ***:", with: ":")
        let because = cause.isEmpty ? "" : ": \(cause)"
        switch status {
        case NARRATE_WORKER_DONE:
            return child ?? .failure(.engineUnavailable(reason: "the eSpeak worker answered nothing"))
        case NARRATE_WORKER_CRASHED:
            return .failure(.engineFailed(reason: "crashed (\(signalName(detail))\(because))", text: ""))
        case NARRATE_WORKER_TIMED_OUT:
            return .failure(.engineFailed(reason: "ran past its \(Format.seconds(detail)) deadline and was stopped", text: ""))
        case NARRATE_WORKER_EXITED:
            return .failure(.engineFailed(reason: "exited with status \(detail)\(because)", text: ""))
        case NARRATE_WORKER_VOICE_NOT_FOUND:
            return .failure(.voiceNotFound("", suggestions: []))
        case NARRATE_WORKER_BAD_PARAMETER:
            let name = ["rate", "volume", "pitch", "word gap"][max(0, min(3, detail - 1))]
            return .failure(.parameterOutOfRange(name: name, value: 0, range: 0...Int(Int32.max)))
        default:
            return .failure(.engineUnavailable(reason: "the eSpeak worker sent an unknown answer (\(status.rawValue))"))
        }
    }

    private static func signalName(_ number: Int) -> String {
        switch Int32(number) {
        case SIGABRT: "SIGABRT"
        case SIGSEGV: "SIGSEGV"
        case SIGBUS: "SIGBUS"
        case SIGILL: "SIGILL"
        case SIGFPE: "SIGFPE"
        case SIGKILL: "SIGKILL"
        default: "signal \(number)"
        }
    }

    private enum Format {
        static func seconds(_ milliseconds: Int) -> String {
            milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : String(format: "%.1f s", Double(milliseconds) / 1000)
        }
    }
}

/// Reads whole frames from the worker's output.
private struct FrameReader {
    struct Message {
        var frame: narrate_worker_frame
        /// An audio frame's samples, read straight into their array.
        var samples: [Int16]?
        /// The rest of the payload: an audio frame's word marks, or a list's text.
        var payload: [UInt8]
    }

    let fd: Int32
    /// A frame's payload may not be larger than this (far more than any chunk's audio).
    static let maxPayload = 1 << 32

    /// The next frame, or `nil` at the end of the output (or a malformed frame).
    func next() -> Message? {
        var frame = narrate_worker_frame()
        let complete = withUnsafeMutableBytes(of: &frame) { readExactly(into: $0) }
        guard complete, frame.magic == NARRATE_WORKER_FRAME_MAGIC else { return nil }
        let length = Int(UInt64(frame.payload_length_high) << 32 | UInt64(frame.payload_length_low))
        guard length <= Self.maxPayload else { return nil }
        var samples: [Int16]?
        var rest = length
        if frame.status == UInt32(NARRATE_WORKER_AUDIO.rawValue) {
            let count = Int(frame.sample_count)
            let markBytes = Int(frame.mark_count) * MemoryLayout<narrate_worker_mark>.size
            guard count * MemoryLayout<Int16>.size + markBytes == length else { return nil }
            var complete = true
            samples = [Int16](unsafeUninitializedCapacity: count) { buffer, initialized in
                complete = readExactly(into: UnsafeMutableRawBufferPointer(buffer))
                initialized = complete ? count : 0
            }
            guard complete else { return nil }
            rest = markBytes
        }
        var payload = [UInt8](repeating: 0, count: rest)
        guard payload.withUnsafeMutableBytes({ readExactly(into: $0) }) else { return nil }
        return Message(frame: frame, samples: samples, payload: payload)
    }

    private func readExactly(into buffer: UnsafeMutableRawBufferPointer) -> Bool {
        var offset = 0
        while offset < buffer.count {
            let count = read(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }
}
