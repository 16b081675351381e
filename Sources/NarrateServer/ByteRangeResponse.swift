import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Audio bytes as a response: whole (200), one byte range (206, `Content-Range`), or 416 for a
/// range outside them. `If-Range` with another tag gets them whole.
enum ByteRangeResponse {
    /// Where the bytes come from: memory, or a file read piece by piece as the client takes
    /// them (a large file is never held whole, however many clients ask for it).
    enum Source: Sendable {
        case memory(ByteBuffer)
        case file(path: String, length: Int)

        var length: Int {
            switch self {
            case let .memory(bytes): bytes.readableBytes
            case let .file(_, length): length
            }
        }

        /// The bytes `start...end` as a body.
        func body(from start: Int, through end: Int) -> ResponseBody {
            switch self {
            case let .memory(bytes):
                // A slice shares the storage: no copy.
                return ResponseBody(byteBuffer: bytes.getSlice(at: bytes.readerIndex + start, length: end - start + 1) ?? ByteBuffer())
            case let .file(path, _):
                return ResponseBody(contentLength: end - start + 1) { writer in
                    // A few at a time: each holds megabytes in flight while its client reads.
                    try await ByteRangeResponse.fileStreams.acquire()
                    defer { Task { await ByteRangeResponse.fileStreams.release() } }
                    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
                    guard descriptor >= 0 else { throw APIError(.internalServerError, "The rendered audio could not be read.", code: "storage_failed") }
                    defer { close(descriptor) }
                    var offset = start
                    while offset <= end {
                        let count = min(ByteRangeResponse.pieceSize, end - offset + 1)
                        var piece = ByteBuffer()
                        piece.reserveCapacity(count)
                        let read = piece.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
                        guard read > 0 else { throw APIError(.internalServerError, "The rendered audio ended early.", code: "storage_failed") }
                        try await writer.write(piece)
                        offset += read
                    }
                    try await writer.finish(nil)
                }
            }
        }
    }

    /// Large files sent at once; more wait their turn (their headers are sent already).
    static let fileStreams = SynthesisQueue(slots: 4, limit: 100_000)

    /// How much of a file is read at a time: 1 MiB, which `narrate serve`'s malloc maps rather
    /// than takes from the heap (see MemoryTuning), so pieces leave nothing behind when sent.
    static let pieceSize = 1_024 * 1_024

    /// The file at `path` (`length` bytes), read whole.
    static func read(_ path: String, length: Int) throws -> ByteBuffer {
        let failed = APIError(.internalServerError, "The rendered audio could not be read.", code: "storage_failed")
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failed }
        defer { close(descriptor) }
        // Read straight into the buffer that is served: one allocation of the file's size.
        var bytes = ByteBuffer()
        bytes.reserveCapacity(length)
        while bytes.readableBytes < length {
            let offset = bytes.readableBytes
            var read = 0
            bytes.writeWithUnsafeMutableBytes(minimumWritableBytes: length - offset) { buffer in
                read = pread(descriptor, buffer.baseAddress, length - offset, off_t(offset))
                return max(0, read)
            }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { throw failed }
        }
        return bytes
    }

    static func respond(with source: Source, contentType: String, tag: String, range: String?, ifRange: String?) -> Response {
        let length = source.length
        var headers: HTTPFields = [.contentType: contentType, .eTag: tag, .acceptRanges: "bytes", .cacheControl: "no-cache"]
        let useRange = ifRange == nil || ifRange == tag
        guard let range, useRange, let bounds = parse(range, length: length) else {
            headers[.contentLength] = String(length)
            return Response(status: .ok, headers: headers, body: length == 0 ? ResponseBody() : source.body(from: 0, through: length - 1))
        }
        guard let (start, end) = bounds else {
            let error = APIError(.rangeNotSatisfiable, "The range '\(range)' is outside the audio's \(length) bytes.", code: "range_not_satisfiable")
            return Response(status: .rangeNotSatisfiable, headers: [.contentType: "application/json", .contentRange: "bytes */\(length)", .eTag: tag], body: .init(byteBuffer: ByteBuffer(bytes: error.body)))
        }
        headers[.contentRange] = "bytes \(start)-\(end)/\(length)"
        headers[.contentLength] = String(end - start + 1)
        return Response(status: .partialContent, headers: headers, body: source.body(from: start, through: end))
    }

    /// `nil`: no usable Range header (serve it all); `.some(nil)`: unsatisfiable; else the
    /// inclusive bounds. Only a single range is honoured.
    static func parse(_ header: String, length: Int) -> (Int, Int)?? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[0].isEmpty {
            guard let suffix = Int(parts[1]), suffix > 0 else { return .some(nil) }
            guard length > 0 else { return .some(nil) }
            return .some((max(0, length - suffix), length - 1))
        }
        guard let start = Int(parts[0]), start >= 0 else { return nil }
        guard start < length else { return .some(nil) }
        if parts[1].isEmpty { return .some((start, length - 1)) }
        guard let end = Int(parts[1]), end >= start else { return nil }
        return .some((start, min(end, length - 1)))
    }
}
