import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Audio bytes as a response: whole (200), one byte range (206, `Content-Range`), or 416 for a
/// range outside them. `If-Range` with another tag gets them whole.
enum ByteRangeResponse {
    /// The file at `path`, read whole.
    static func read(_ path: String) throws -> ByteBuffer {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else {
            throw APIError(.internalServerError, "The rendered audio could not be read.", code: "storage_failed")
        }
        return ByteBuffer(bytes: data)
    }

    /// `bytes` whole, or the one range `range` asks for.
    static func respond(with bytes: ByteBuffer, contentType: String, tag: String, range: String?, ifRange: String?) -> Response {
        let length = bytes.readableBytes
        var headers: HTTPFields = [.contentType: contentType, .eTag: tag, .acceptRanges: "bytes", .cacheControl: "no-cache"]
        let useRange = ifRange == nil || ifRange == tag
        guard let range, useRange, let bounds = parse(range, length: length) else {
            headers[.contentLength] = String(length)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: bytes))
        }
        guard let (start, end) = bounds else {
            let error = APIError(.rangeNotSatisfiable, "The range '\(range)' is outside the audio's \(length) bytes.", code: "range_not_satisfiable")
            return Response(status: .rangeNotSatisfiable, headers: [.contentType: "application/json", .contentRange: "bytes */\(length)", .eTag: tag], body: .init(byteBuffer: ByteBuffer(bytes: error.body)))
        }
        headers[.contentRange] = "bytes \(start)-\(end)/\(length)"
        headers[.contentLength] = String(end - start + 1)
        // A slice shares the storage: no copy.
        let slice = bytes.getSlice(at: bytes.readerIndex + start, length: end - start + 1) ?? ByteBuffer()
        return Response(status: .partialContent, headers: headers, body: .init(byteBuffer: slice))
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
