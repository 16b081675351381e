import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A file as a response: whole (200), one byte range (206, `Content-Range`), or 416 for a
/// range outside it. `If-Range` with another tag gets the whole file.
enum ByteRangeResponse {
    static func file(at path: String, contentType: String, tag: String, range: String?, ifRange: String?) throws -> Response {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else {
            throw APIError(.internalServerError, "The rendered audio could not be read.", code: "storage_failed")
        }
        var headers: HTTPFields = [.contentType: contentType, .eTag: tag, .acceptRanges: "bytes", .cacheControl: "no-cache"]
        let useRange = ifRange == nil || ifRange == tag
        guard let range, useRange, let bounds = parse(range, length: data.count) else {
            headers[.contentLength] = String(data.count)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        guard let (start, end) = bounds else {
            let error = APIError(.rangeNotSatisfiable, "The range '\(range)' is outside the audio's \(data.count) bytes.", code: "range_not_satisfiable")
            return Response(status: .rangeNotSatisfiable, headers: [.contentType: "application/json", .contentRange: "bytes */\(data.count)", .eTag: tag], body: .init(byteBuffer: ByteBuffer(bytes: error.body)))
        }
        headers[.contentRange] = "bytes \(start)-\(end)/\(data.count)"
        headers[.contentLength] = String(end - start + 1)
        return Response(status: .partialContent, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data[start...end])))
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
