import Foundation
import Logging
import NIOCore
import NIOPosix
import NarrateKit
import ServiceLifecycle

/// Home Assistant's Wyoming protocol on TCP: `describe` → `info` (a TTS program with its
/// voices); `synthesize` → `audio-start`, `audio-chunk`…, `audio-stop`; and the streaming
/// `synthesize-start`, `synthesize-chunk`…, `synthesize-stop` → audio per sentence as text
/// comes, then `synthesize-stopped` (a plain `synthesize` during a stream is the client's
/// compatibility copy and is ignored). Audio is the engine's 16-bit mono PCM at its own rate.
struct WyomingServer: Service {
    let backend: SpeechBackend
    let host: String
    let port: Int
    let logger: Logger
    let onListening: @Sendable (String) async -> Void

    /// Samples per `audio-chunk` (about 0.1 s at 22,050 Hz… 1,024 samples is what Piper sends).
    static let samplesPerChunk = 2_048

    func run() async throws {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: host, port: port) { child in
                child.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: child)
                }
            }
        await onListening(NarrateServer.describe(channel.channel.localAddress))
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                try await channel.executeThenClose { inbound in
                    for try await connection in inbound {
                        group.addTask { await handle(connection) }
                    }
                }
            }
        } onGracefulShutdown: {
            channel.channel.close(promise: nil)
        }
    }

    private func handle(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        do {
            try await connection.executeThenClose { inbound, outbound in
                var session = Session()
                var buffer = ByteBuffer()
                for try await part in inbound {
                    buffer.writeImmutableBuffer(part)
                    while let event = try WyomingEvent.parse(&buffer) {
                        try await respond(to: event, session: &session, outbound: outbound)
                    }
                    buffer.discardReadBytes()
                }
            }
        } catch {
            logger.info("wyoming connection ended: \(ErrorDisclosure.logged(String(describing: error)))")
        }
    }

    /// A streaming synthesis in progress on one connection.
    struct Session {
        var streaming = false
        var voice: VoiceProfile?
        var pending = ""
        var started = false
        var sampleRate = 22_050
    }

    private func respond(to event: WyomingEvent, session: inout Session, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        let start = ContinuousClock.now
        switch event.type {
        case "describe":
            try await outbound.write(await info().encoded())
        case "synthesize":
            guard !session.streaming else { return }
            let text = event.string("text") ?? ""
            let voice = try await voice(from: event.object("voice"), outbound: outbound)
            guard let voice else { return }
            var ignored = Session()
            try await speak(text, voice: voice, session: &ignored, outbound: outbound, startsStream: true, endsStream: true)
            logger.info("wyoming synthesize \(Self.milliseconds(since: start)) ms")
        case "synthesize-start":
            session = Session(streaming: true)
            session.voice = try await voice(from: event.object("voice"), outbound: outbound)
        case "synthesize-chunk":
            guard session.streaming, let voice = session.voice else { return }
            session.pending += event.string("text") ?? ""
            // Speak the complete sentences; keep the unfinished one for the next chunk.
            if let cut = Self.lastSentenceEnd(in: session.pending) {
                let ready = String(session.pending[..<cut])
                session.pending = String(session.pending[cut...])
                try await speak(ready, voice: voice, session: &session, outbound: outbound, startsStream: !session.started, endsStream: false)
            }
        case "synthesize-stop":
            guard session.streaming else { return }
            if let voice = session.voice {
                try await speak(session.pending, voice: voice, session: &session, outbound: outbound, startsStream: !session.started, endsStream: true)
            }
            try await outbound.write(WyomingEvent(type: "synthesize-stopped", data: [:]).encoded())
            session = Session()
        case "ping":
            try await outbound.write(WyomingEvent(type: "pong", data: [:]).encoded())
        default:
            break
        }
    }

    /// Speaks `text` as audio events; `startsStream` sends `audio-start` first, `endsStream`
    /// `audio-stop` last. An empty text sends only those. A failure is an `error` event.
    private func speak(_ text: String, voice: VoiceProfile, session: inout Session, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, startsStream: Bool, endsStream: Bool) async throws {
        let sampleRate = session.sampleRate
        guard text.count <= backend.server.maxInput * 16 else {
            let limit = backend.server.maxInput * 16
            try await sendError(.badRequest("The text has \(text.count) characters; the most is \(limit).", code: "input_too_long"), outbound: outbound)
            return
        }
        var rate = sampleRate
        let prepared = SpeechText(text)
        if !prepared.isEmpty {
            do {
                let speech = try await backend.speak(prepared, voice: voice, channel: nil)
                var first = true
                while let audio = try await speech.next() {
                    rate = audio.sampleRate
                    if first, startsStream {
                        try await outbound.write(Self.audioEvent("audio-start", rate: rate, payload: nil))
                    }
                    first = false
                    var offset = 0
                    while offset < audio.samples.count {
                        let end = min(audio.samples.count, offset + Self.samplesPerChunk)
                        let bytes = audio.samples[offset..<end].withUnsafeBytes { Array($0) }
                        try await outbound.write(Self.audioEvent("audio-chunk", rate: rate, payload: bytes))
                        offset = end
                    }
                }
                session.started = true
            } catch let error as APIError {
                try await sendError(error, outbound: outbound)
                return
            } catch let error as SpeechError {
                try await sendError(SpeechBackend.apiError(error), outbound: outbound)
                return
            }
        }
        if startsStream, !session.started {
            try await outbound.write(Self.audioEvent("audio-start", rate: rate, payload: nil))
            session.started = true
        }
        if endsStream {
            try await outbound.write(WyomingEvent(type: "audio-stop", data: [:]).encoded())
        }
    }

    /// An `error` event: the message a client may read (`ErrorDisclosure`), its detail logged.
    private func sendError(_ error: APIError, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        let told = backend.disclosure.disclosed(error, context: "wyoming")
        try await outbound.write(WyomingEvent(type: "error", data: ["text": told.message, "code": told.code ?? "synthesis_failed"]).encoded())
    }

    private func voice(from object: [String: Any]?, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws -> VoiceProfile? {
        let name = (object?["name"] as? String) ?? (object?["language"] as? String)
        do {
            return try await backend.voice(named: name ?? backend.server.defaultVoice, speed: nil)
        } catch {
            try await sendError(error, outbound: outbound)
            return nil
        }
    }

    static func audioEvent(_ type: String, rate: Int, payload: [UInt8]?) -> ByteBuffer {
        WyomingEvent(type: type, data: ["rate": rate, "width": 2, "channels": 1], payload: payload).encoded()
    }

    /// Where the last complete sentence of `text` ends (after its punctuation), if any.
    static func lastSentenceEnd(in text: String) -> String.Index? {
        var cut: String.Index?
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            if ".!?;:\n".contains(text[index]), next == text.endIndex ? false : text[next].isWhitespace {
                cut = next
            }
            index = next
        }
        return cut
    }

    /// The `info` event: one TTS program, Narrate, with every voice.
    private func info() async -> WyomingEvent {
        let attribution: [String: Any] = ["name": "eSpeak NG", "url": "https://github.com/espeak-ng/espeak-ng"]
        let voices = (try? await CatalogController(backend: backend).voices().voices) ?? []
        let entries: [[String: Any]] = voices.map { voice in
            [
                "name": voice.name, "attribution": attribution, "installed": true,
                "description": voice.description ?? "\(voice.name) (\(voice.voice))", "version": NSNull(),
                "languages": [voice.language ?? "en"], "speakers": NSNull(),
            ]
        }
        let program: [String: Any] = [
            "name": "narrate", "attribution": attribution, "installed": true,
            "description": "Narrate: eSpeak NG with a shared audio cache", "version": "1.0",
            "voices": entries, "supports_synthesize_streaming": true,
        ]
        return WyomingEvent(type: "info", data: ["tts": SendableJSON([program]), "asr": SendableJSON([Any]()), "wake": SendableJSON([Any]()), "handle": SendableJSON([Any]()), "intent": SendableJSON([Any]())])
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> String {
        String(format: "%.1f", (ContinuousClock.now - start).seconds * 1000)
    }
}
