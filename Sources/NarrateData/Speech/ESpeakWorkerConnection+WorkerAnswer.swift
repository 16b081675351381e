import CNarrateSystem
import Foundation
import Glibc
import NarrateDomain

extension ESpeakWorkerConnection {
    /// What the child that served a request sent, before the worker's final word on it.
    enum WorkerAnswer: Sendable {
        case audio(SpeechAudio)
        /// The child wrote the request's cache entry: its length and word marks.
        case stored(sampleRate: Int, sampleCount: Int, wordMarks: [WordMark])
        case list(String)
        case failure(SpeechError)
        /// The process that had the request died with it (a signal, or the worker itself gone):
        /// the text may not be at fault, and is worth one more try on a fresh process.
        case crashed(SpeechError)

        /// The answer in a child's frame (AUDIO, STORED, LIST, SYNTH_FAILED or TOO_LONG).
        init(child message: WorkerFrameReader.Message) {
            let frame = message.frame
            switch narrate_worker_status(frame.status) {
            case NARRATE_WORKER_AUDIO:
                guard let samples = message.samples else {
                    self = .failure(.engineUnavailable(reason: "the eSpeak worker sent a malformed answer"))
                    return
                }
                self = .audio(SpeechAudio(sampleRate: Int(frame.sample_rate), samples: samples, wordMarks: Self.marks(in: message)))
            case NARRATE_WORKER_STORED:
                guard message.payload.count == Int(frame.mark_count) * MemoryLayout<narrate_worker_mark>.size, frame.sample_count <= UInt64(Int.max) else {
                    self = .failure(.engineUnavailable(reason: "the eSpeak worker sent a malformed answer"))
                    return
                }
                self = .stored(sampleRate: Int(frame.sample_rate), sampleCount: Int(frame.sample_count), wordMarks: Self.marks(in: message))
            case NARRATE_WORKER_LIST:
                self = .list(String(decoding: message.payload, as: UTF8.self))
            case NARRATE_WORKER_TOO_LONG:
                self = .failure(.audioTooLong(limitSeconds: 0))
            default:
                self = .failure(.synthesisFailed(code: Int(frame.detail), voice: "", textLength: 0))
            }
        }

        /// The word marks at the start of a frame's payload.
        private static func marks(in message: WorkerFrameReader.Message) -> [WordMark] {
            let markSize = MemoryLayout<narrate_worker_mark>.size
            let count = min(Int(message.frame.mark_count), message.payload.count / markSize)
            return message.payload.withUnsafeBytes { bytes in
                (0..<count).map { index in
                    let mark = bytes.loadUnaligned(fromByteOffset: index * markSize, as: narrate_worker_mark.self)
                    return WordMark(textOffset: Int(mark.text_offset), textLength: Int(mark.text_length), sampleOffset: Int(mark.sample_offset))
                }
            }
        }

        /// The request's answer, from the worker's final frame (`status`, `detail`) and what the
        /// child sent before it.
        /// - Parameter note: the last line the child wrote to its standard error, if it failed.
        static func final(_ status: narrate_worker_status, detail: Int, note: String, child: WorkerAnswer?) -> WorkerAnswer {
            // glibc's "*** buffer overflow detected ***: terminated" says it best without its stars.
            let cause = note.trimmingCharacters(in: CharacterSet(charactersIn: "* ")).replacingOccurrences(of: " ***:", with: ":")
            let because = cause.isEmpty ? "" : ": \(cause)"
            switch status {
            case NARRATE_WORKER_DONE:
                return child ?? .failure(.engineUnavailable(reason: "the eSpeak worker answered nothing"))
            case NARRATE_WORKER_CRASHED:
                return .crashed(.engineFailed(reason: "crashed (\(signalName(detail))\(because))", text: ""))
            case NARRATE_WORKER_TIMED_OUT:
                return .failure(.engineFailed(reason: "ran past its \(Format.seconds(detail)) deadline and was stopped", text: ""))
            case NARRATE_WORKER_EXITED:
                return .failure(.engineFailed(reason: "exited with status \(detail)\(because)", text: ""))
            case NARRATE_WORKER_VOICE_NOT_FOUND:
                return .failure(.voiceNotFound("", suggestions: []))
            case NARRATE_WORKER_MODEL_FAILED:
                return .failure(.voiceFailed(voice: "", reason: cause.isEmpty ? "the worker could not load it" : cause))
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
}
