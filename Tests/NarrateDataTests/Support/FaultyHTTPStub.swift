import Foundation
import Glibc
import Synchronization

@testable import NarrateData

/// An HTTP/1.1 server on a loopback port, in this process, that answers each request with the
/// next scripted `Reply` (the last one repeats): audio, an error status with headers, a body
/// that comes slowly, is cut short, or a reset connection. It records every request, the
/// greatest number in flight at once, and closes every connection after one answer.
final class FaultyHTTPStub: Sendable {
    indirect enum Reply: Sendable {
        /// `status`, `headers` and `body` as given (Content-Length is added unless `headers` has one).
        case answer(status: Int, headers: [(String, String)], body: [UInt8])
        /// The answer after a pause.
        case delayed(seconds: Double, Reply)
        /// Headers with the body's length, then the body a piece every `interval` seconds.
        case trickle(body: [UInt8], contentType: String, pieces: Int, interval: Double)
        /// Headers that promise `body.count + missing` bytes, then `body`, then the connection closes.
        case cutShort(body: [UInt8], contentType: String, missing: Int)
        /// The connection is reset (RST) before any answer.
        case reset
        /// Headers that promise `promised` bytes, `sent` of them, then nothing until the client
        /// gives up (closes the connection), which is counted in `clientsGaveUp`.
        case stall(status: Int, promised: Int, sent: Int, contentType: String = "application/octet-stream")
        /// Headers without a length, then bytes as fast as the client takes them until it
        /// closes the connection (counted in `floodedBytes`; at most 1 GiB).
        case flood(status: Int, contentType: String = "application/xml")

        static func wav(_ samples: [Int16], rate: Int = 22_050) -> Reply {
            .answer(status: 200, headers: [("Content-Type", "audio/wav")], body: FaultyHTTPStub.wavBytes(samples, rate: rate))
        }

        static func status(_ status: Int, _ headers: [(String, String)] = [], body: String = "") -> Reply {
            .answer(status: status, headers: headers + [("Content-Type", "application/json")], body: Array(body.utf8))
        }
    }

    /// What one request carried.
    struct Request: Sendable {
        var method: String
        var path: String
        var headers: [String: String]
        var body: [UInt8]
        /// How many `.trickle` bodies had been sent whole when this request came.
        var tricklesFinishedBefore = 0

        var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
        }
    }

    let port: Int
    private let listener: Int32
    private struct State {
        var replies: [Reply]
        var requests: [Request] = []
        var inFlight = 0
        var maxInFlight = 0
        var stopped = false
        var tricklesFinished = 0
        var clientsGaveUp = 0
        var floodedBytes = 0
    }

    private let state: Mutex<State>

    init(_ replies: [Reply]) throws {
        precondition(!replies.isEmpty)
        state = Mutex(State(replies: replies))
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(fd, 64) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    var baseURL: String { "http://127.0.0.1:\(port)/v1" }
    var requests: [Request] { state.withLock { $0.requests } }
    var requestCount: Int { state.withLock { $0.requests.count } }
    var maxInFlight: Int { state.withLock { $0.maxInFlight } }
    var clientsGaveUp: Int { state.withLock { $0.clientsGaveUp } }
    var floodedBytes: Int { state.withLock { $0.floodedBytes } }
    var tricklesFinished: Int { state.withLock { $0.tricklesFinished } }

    func stop() {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        if first { shutdown(listener, Int32(SHUT_RDWR)); close(listener) }
    }

    // MARK: - Serving

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            Thread { [self] in serve(client) }.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        guard var request = readRequest(client) else { return }
        let reply = state.withLock { state -> Reply in
            request.tricklesFinishedBefore = state.tricklesFinished
            state.requests.append(request)
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
            return state.replies.count > 1 ? state.replies.removeFirst() : state.replies[0]
        }
        // A request stops counting as in flight just before its answer is written: the client
        // may start its next request as soon as it has read it, before this thread goes on.
        var counted = true
        send(reply, to: client) {
            if counted { state.withLock { $0.inFlight -= 1 } }
            counted = false
        }
        if counted { state.withLock { $0.inFlight -= 1 } }
    }

    private func send(_ reply: Reply, to client: Int32, answering: () -> Void) {
        switch reply {
        case let .answer(status, headers, body):
            var all = headers
            if !all.contains(where: { $0.0.lowercased() == "content-length" }) { all.append(("Content-Length", "\(body.count)")) }
            answering()
            write(client, head(status, all) + body)
        case let .delayed(seconds, inner):
            Thread.sleep(forTimeInterval: seconds)
            send(inner, to: client, answering: answering)
        case let .trickle(body, contentType, pieces, interval):
            answering()
            write(client, head(200, [("Content-Type", contentType), ("Content-Length", "\(body.count)")]))
            let size = max(1, (body.count + pieces - 1) / pieces)
            var offset = 0
            while offset < body.count {
                Thread.sleep(forTimeInterval: interval)
                guard write(client, Array(body[offset..<min(body.count, offset + size)])) else { return }
                offset += size
            }
            state.withLock { $0.tricklesFinished += 1 }
        case let .cutShort(body, contentType, missing):
            answering()
            write(client, head(200, [("Content-Type", contentType), ("Content-Length", "\(body.count + missing)")]) + body)
        case let .stall(status, promised, sent, contentType):
            answering()
            write(client, head(status, [("Content-Type", contentType), ("Content-Length", "\(promised)")]) + [UInt8](repeating: 7, count: sent))
            // Wait for the client to close: recv answers 0 (or fails) then.
            var byte: UInt8 = 0
            while recv(client, &byte, 1, 0) > 0 {}
            state.withLock { $0.clientsGaveUp += 1 }
        case let .flood(status, contentType):
            answering()
            write(client, head(status, [("Content-Type", contentType)]))
            let block = [UInt8](repeating: 65, count: 65_536)
            var total = 0
            while total < 1 << 30, write(client, block) {
                total += block.count
                state.withLock { $0.floodedBytes += block.count }
            }
        case .reset:
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        }
    }

    private func head(_ status: Int, _ headers: [(String, String)]) -> [UInt8] {
        var text = "HTTP/1.1 \(status) Stub\r\nConnection: close\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    @discardableResult
    private func write(_ client: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    private func readRequest(_ client: Int32) -> Request? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var headerEnd: Int?
        var contentLength = 0
        while true {
            if let end = headerEnd, data.count >= end + contentLength { break }
            let count = recv(client, &buffer, buffer.count, 0)
            if count <= 0 { return nil }
            data += buffer[0..<count]
            if headerEnd == nil, let range = data.firstRange(of: Array("\r\n\r\n".utf8)) {
                headerEnd = range.upperBound
                let head = String(decoding: data[0..<range.lowerBound], as: UTF8.self)
                for line in head.split(separator: "\r\n").dropFirst() where line.lowercased().hasPrefix("content-length:") {
                    contentLength = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
        }
        guard let end = headerEnd else { return nil }
        let lines = String(decoding: data[0..<end - 4], as: UTF8.self).split(separator: "\r\n")
        let requestLine = lines.first?.split(separator: " ") ?? []
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Request(
            method: requestLine.first.map(String.init) ?? "", path: requestLine.count > 1 ? String(requestLine[1]) : "",
            headers: headers, body: Array(data[end..<min(data.count, end + contentLength)])
        )
    }

    /// A 16-bit mono WAV file of `samples` (the header `narrate say` writes).
    static func wavBytes(_ samples: [Int16], rate: Int) -> [UInt8] {
        WAVWriter.header(sampleRate: rate, dataBytes: UInt64(samples.count * 2)) + samples.flatMap { withUnsafeBytes(of: $0.littleEndian, Array.init) }
    }
}
