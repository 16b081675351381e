import Foundation
import Testing

/// A plain HTTP/1.1 client on a socket, for what URLSession hides: reading the head of a
/// response before its body.
final class RawHTTP {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0, "could not connect to 127.0.0.1:\(port)")
    }

    deinit { close(fd) }

    func send(_ head: String, _ body: Data) throws {
        let bytes = Array(head.utf8) + Array(body)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            try #require(count > 0, "send failed")
            sent += count
        }
    }

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer += chunk[0..<count]
        return true
    }

    /// The status line and headers.
    func readHead() throws -> String {
        while true {
            if let end = buffer.indices.dropLast(3).first(where: { buffer[$0] == 13 && buffer[$0 + 1] == 10 && buffer[$0 + 2] == 13 && buffer[$0 + 3] == 10 }) {
                let head = String(decoding: buffer[0..<end], as: UTF8.self)
                buffer.removeFirst(end + 4)
                return head
            }
            try #require(fill(), "the connection closed before the response head")
        }
    }

    /// A chunked body to its last chunk; it fails if the connection closes before.
    func readChunkedBody() throws -> Data {
        var body = Data()
        while true {
            var lineEnd: Int?
            while lineEnd == nil {
                lineEnd = buffer.indices.dropLast().first { buffer[$0] == 13 && buffer[$0 + 1] == 10 }
                if lineEnd == nil { try #require(fill(), "the body was cut short") }
            }
            let sizeLine = String(decoding: buffer[0..<lineEnd!], as: UTF8.self)
            let size = try #require(Int(sizeLine.split(separator: ";")[0], radix: 16))
            buffer.removeFirst(lineEnd! + 2)
            while buffer.count < size + 2 { try #require(fill(), "the body was cut short") }
            body.append(contentsOf: buffer[0..<size])
            buffer.removeFirst(size + 2)
            if size == 0 { return body }
        }
    }
}
