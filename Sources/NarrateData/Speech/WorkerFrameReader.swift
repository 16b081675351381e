import CNarrateSystem
import Glibc

/// Reads whole frames (`narrate_worker_frame` and its payload, see `narrate_worker_protocol.h`)
/// from the worker's output, however the pipe splits them. It does not own `fd`.
struct WorkerFrameReader {
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
