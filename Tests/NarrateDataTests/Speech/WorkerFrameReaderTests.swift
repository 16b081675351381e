import CNarrateSystem
import Foundation
import Glibc
@testable import NarrateData
import NarrateDomain
import Testing

/// The frames `narrate-worker` writes, read from a pipe as the connection reads them.
@Suite struct WorkerFrameReaderTests {
    /// A frame in the wire format of `narrate_worker_protocol.h` (host byte order), written out
    /// field by field so the test checks the layout too.
    private static func frame(
        status: narrate_worker_status, id: UInt64 = 7, sampleRate: Int32 = 0, detail: Int32 = 0, sampleCount: UInt64 = 0,
        markCount: UInt32 = 0, payloadLength: UInt64, magic: UInt32 = NARRATE_WORKER_FRAME_MAGIC
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        func add<T>(_ value: T) { withUnsafeBytes(of: value) { bytes += $0 } }
        add(magic)
        add(UInt32(status.rawValue))
        add(id)
        add(sampleRate)
        add(detail)
        add(sampleCount)
        add(markCount)
        add(UInt32(payloadLength >> 32))
        add(UInt32(payloadLength & 0xFFFF_FFFF))
        add(UInt32(0))
        return bytes
    }

    private static func audioFrame(id: UInt64, samples: [Int16], marks: [(text: Int32, length: Int32, sample: Int64)]) -> [UInt8] {
        var payload: [UInt8] = []
        samples.withUnsafeBytes { payload += $0 }
        for mark in marks {
            withUnsafeBytes(of: mark.text) { payload += $0 }
            withUnsafeBytes(of: mark.length) { payload += $0 }
            withUnsafeBytes(of: mark.sample) { payload += $0 }
        }
        let header = frame(
            status: NARRATE_WORKER_AUDIO, id: id, sampleRate: 22_050, sampleCount: UInt64(samples.count), markCount: UInt32(marks.count),
            payloadLength: UInt64(payload.count)
        )
        return header + payload
    }

    private static func textFrame(status: narrate_worker_status, id: UInt64, detail: Int32 = 0, text: String) -> [UInt8] {
        frame(status: status, id: id, detail: detail, payloadLength: UInt64(text.utf8.count)) + Array(text.utf8)
    }

    /// Reads every frame `chunks` make, written to a pipe one chunk at a time by another thread
    /// (pausing between chunks, so each read sees only what came so far), until the reader stops.
    private static func read(_ chunks: [[UInt8]], pause: useconds_t = 0) -> [WorkerFrameReader.Message] {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { Issue.record("pipe failed"); return [] }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let writer = Thread {
            for chunk in chunks {
                chunk.withUnsafeBytes { buffer in
                    var offset = 0
                    while offset < buffer.count {
                        let count = write(writeEnd, buffer.baseAddress! + offset, buffer.count - offset)
                        guard count > 0 else { return }
                        offset += count
                    }
                }
                if pause > 0 { usleep(pause) }
            }
            close(writeEnd)
        }
        writer.start()
        defer { close(readEnd) }
        let reader = WorkerFrameReader(fd: readEnd)
        var messages: [WorkerFrameReader.Message] = []
        while let message = reader.next() { messages.append(message) }
        return messages
    }

    @Test("Given a hello, an audio and a list frame written whole, when read, then each comes out with its fields and payload, then the end")
    func wholeFrames() throws {
        // Given
        let bytes = Self.textFrame(status: NARRATE_WORKER_HELLO, id: 0, detail: 22_050, text: "1.51")
            + Self.audioFrame(id: 1, samples: [1, -2, 300], marks: [(0, 4, 0), (5, 3, 2)])
            + Self.textFrame(status: NARRATE_WORKER_LIST, id: 2, text: "en\u{1F}English")

        // When
        let messages = Self.read([bytes])

        // Then
        try #require(messages.count == 3)
        #expect(messages[0].frame.status == UInt32(NARRATE_WORKER_HELLO.rawValue))
        #expect(messages[0].frame.detail == 22_050)
        #expect(String(decoding: messages[0].payload, as: UTF8.self) == "1.51")
        #expect(messages[0].samples == nil)
        #expect(messages[1].frame.id == 1)
        #expect(messages[1].samples == [1, -2, 300])
        #expect(messages[1].payload.count == 2 * MemoryLayout<narrate_worker_mark>.size)
        #expect(String(decoding: messages[2].payload, as: UTF8.self) == "en\u{1F}English")
    }

    @Test("Given frames split across many small writes, when read, then they come out exactly as when written whole")
    func framesSplitAcrossReads() throws {
        // Given
        let bytes = Self.audioFrame(id: 3, samples: Array(0..<500), marks: [(0, 2, 10)])
            + Self.textFrame(status: NARRATE_WORKER_DONE, id: 3, text: "")
        let chunks = stride(from: 0, to: bytes.count, by: 7).map { Array(bytes[$0..<min($0 + 7, bytes.count)]) }

        // When
        let messages = Self.read(chunks, pause: 200)

        // Then
        try #require(messages.count == 2)
        #expect(messages[0].samples == Array(0..<500))
        #expect(messages[0].payload.count == MemoryLayout<narrate_worker_mark>.size)
        #expect(messages[1].frame.status == UInt32(NARRATE_WORKER_DONE.rawValue))
        #expect(messages[1].payload.isEmpty)
    }

    @Test("Given a frame whose payload is past the size bound, when read, then reading stops there without allocating it")
    func frameBeyondBound() {
        // Given: a good frame, then one that claims more than 4 GiB
        let bytes = Self.textFrame(status: NARRATE_WORKER_LIST, id: 1, text: "ok")
            + Self.frame(status: NARRATE_WORKER_LIST, id: 2, payloadLength: UInt64(WorkerFrameReader.maxPayload) + 1)
            + Self.textFrame(status: NARRATE_WORKER_LIST, id: 3, text: "never read")

        // When
        let messages = Self.read([bytes])

        // Then
        #expect(messages.map(\.frame.id) == [1])
    }

    @Test("Given an audio frame whose samples and marks do not add up to its payload length, when read, then reading stops")
    func audioFrameWithWrongLength() {
        let bytes = Self.frame(status: NARRATE_WORKER_AUDIO, sampleCount: 4, markCount: 0, payloadLength: 9) + [UInt8](repeating: 0, count: 9)

        #expect(Self.read([bytes]).isEmpty)
    }

    @Test("Given garbage, a wrong magic or a frame cut short by the end, when read, then nothing is read")
    func garbage() {
        // Given
        let garbage = Array("Segmentation fault (core dumped)\n and then some more noise".utf8)
        let wrongMagic = Self.frame(status: NARRATE_WORKER_DONE, payloadLength: 0, magic: NARRATE_WORKER_REQUEST_MAGIC)
        let truncated = Array(Self.textFrame(status: NARRATE_WORKER_LIST, id: 1, text: "a voice list").dropLast(3))

        // When / Then
        #expect(Self.read([garbage]).isEmpty)
        #expect(Self.read([wrongMagic]).isEmpty)
        #expect(Self.read([truncated]).isEmpty)
        #expect(Self.read([Array(truncated.prefix(20))]).isEmpty)
        #expect(Self.read([]).isEmpty)
    }
}
