import Foundation
import NIOCore

/// One event of Home Assistant's Wyoming protocol: a JSON header line (`type`, `data`,
/// `data_length`, `payload_length`, `version`), then `data_length` bytes of JSON merged into
/// `data`, then `payload_length` bytes of payload (audio).
struct WyomingEvent: Sendable {
    var type: String
    var data: [String: any Sendable]
    var payload: [UInt8]?

    static let version = "1.8.0"

    /// The bounds on what a client may send.
    static let maxHeaderBytes = 64 * 1_024
    static let maxDataBytes = 1_024 * 1_024
    static let maxPayloadBytes = 4 * 1_024 * 1_024

    enum ParseError: Error, CustomStringConvertible {
        case headerTooLong, notJSON, noType, tooLarge(String)
        var description: String {
            switch self {
            case .headerTooLong: "an event header line is longer than \(WyomingEvent.maxHeaderBytes) bytes"
            case .notJSON: "an event header or data is not a JSON object"
            case .noType: "an event has no type"
            case let .tooLarge(what): "an event's \(what) is larger than allowed"
            }
        }
    }

    /// Reads one event from the front of `buffer`, or `nil` when it does not hold a whole one yet.
    static func parse(_ buffer: inout ByteBuffer) throws -> WyomingEvent? {
        let view = buffer.readableBytesView
        guard let newline = view.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > maxHeaderBytes { throw ParseError.headerTooLong }
            return nil
        }
        let headerLength = newline - view.startIndex
        guard headerLength <= maxHeaderBytes else { throw ParseError.headerTooLong }
        let headerBytes = Array(view[view.startIndex..<newline])
        guard let header = (try? JSONSerialization.jsonObject(with: Data(headerBytes))) as? [String: Any] else { throw ParseError.notJSON }
        guard let type = header["type"] as? String else { throw ParseError.noType }
        let dataLength = (header["data_length"] as? Int) ?? 0
        let payloadLength = (header["payload_length"] as? Int) ?? 0
        guard (0...maxDataBytes).contains(dataLength) else { throw ParseError.tooLarge("data") }
        guard (0...maxPayloadBytes).contains(payloadLength) else { throw ParseError.tooLarge("payload") }
        guard buffer.readableBytes >= headerLength + 1 + dataLength + payloadLength else { return nil }
        buffer.moveReaderIndex(forwardBy: headerLength + 1)
        var data = (header["data"] as? [String: Any]) ?? [:]
        if dataLength > 0 {
            let bytes = buffer.readBytes(length: dataLength) ?? []
            guard let extra = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else { throw ParseError.notJSON }
            data.merge(extra) { _, new in new }
        }
        let payload = payloadLength > 0 ? buffer.readBytes(length: payloadLength) : nil
        return WyomingEvent(type: type, data: data.mapValues { SendableJSON($0) }, payload: payload)
    }

    /// The event on the wire: data goes after the header line (as the Python library writes it).
    func encoded() -> ByteBuffer {
        var header: [String: Any] = ["type": type, "version": Self.version]
        var dataBytes: Data?
        if !data.isEmpty {
            dataBytes = try? JSONSerialization.data(withJSONObject: data.mapValues { ($0 as? SendableJSON)?.value ?? $0 }, options: [.sortedKeys])
            header["data_length"] = dataBytes?.count ?? 0
        }
        if let payload, !payload.isEmpty { header["payload_length"] = payload.count }
        var buffer = ByteBuffer()
        buffer.writeBytes((try? JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])) ?? Data())
        buffer.writeInteger(UInt8(ascii: "\n"))
        if let dataBytes { buffer.writeBytes(dataBytes) }
        if let payload, !payload.isEmpty { buffer.writeBytes(payload) }
        return buffer
    }

    func string(_ key: String) -> String? {
        (data[key] as? SendableJSON)?.value as? String
    }

    func object(_ key: String) -> [String: Any]? {
        (data[key] as? SendableJSON)?.value as? [String: Any]
    }
}

/// A JSON value from `JSONSerialization` (property-list types only), carried across tasks.
struct SendableJSON: @unchecked Sendable {
    let value: Any
    init(_ value: Any) { self.value = value }
}
