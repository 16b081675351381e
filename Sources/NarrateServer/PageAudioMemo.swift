import NIOCore
import Synchronization

/// What makes a cached page's audio as cheap to serve as a static file:
/// - which entity tag a page request (book, page, voice, format) resolves to, remembered for
///   `ttl` (so a book or preset changed by another process is seen within it; changes made
///   through this service clear it at once);
/// - the encoded bytes of recently served tags, up to `maxBytes` (8 MiB: an MP3 page is about
///   800 KB, a WAV page about 5 MB), least recently used out, read once however many clients
///   ask at the same moment; every response is a slice of them (no copy), so a page served to
///   many clients at once costs its size once. A file larger than the bound is read piece by
///   piece per request.
///   A tag names its content, so these are never stale.
final class PageAudioMemo: Sendable {
    struct Resolution: Sendable {
        var tag: String
        var path: String
        var resolvedAt: ContinuousClock.Instant
    }

    private struct State: ~Copyable {
        var resolutions: [String: Resolution] = [:]
        /// Keys one request is looking up again now.
        var refreshing: Set<String> = []
        var bytes: [String: ByteBuffer] = [:]
        var order: [String] = []
        var total = 0
    }

    let ttl: Duration
    let maxBytes: Int
    private let now: @Sendable () -> ContinuousClock.Instant
    private let state = Mutex(State())
    /// Reads of files not yet kept, by tag, shared by the requests that want them at once.
    private let loads = Mutex<[String: (task: Task<ByteBuffer, any Error>, waiting: Int)]>([:])

    /// - Parameter now: the clock the time to live is measured on (a test moves it by hand).
    init(ttl: Duration = .seconds(2), maxBytes: Int = 8 * 1_024 * 1_024, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.ttl = ttl
        self.maxBytes = maxBytes
        self.now = now
    }

    /// The resolution of `key` if it is fresh. One that has expired is given to every caller
    /// but one, which gets `nil` and looks it up again (then calls `endRefresh`): many clients
    /// of one page do not all load the book at the same moment.
    func resolution(for key: String) -> Resolution? {
        let now = now()
        return state.withLock { state in
            guard let found = state.resolutions[key] else { return nil }
            if now - found.resolvedAt < ttl { return found }
            if state.refreshing.contains(key) { return found }
            state.refreshing.insert(key)
            return nil
        }
    }

    func endRefresh(_ key: String) {
        state.withLock { _ = $0.refreshing.remove(key) }
    }

    func remember(_ key: String, tag: String, path: String) {
        let now = now()
        state.withLock { state in
            if state.resolutions.count > 10_000 { state.resolutions.removeAll() }
            state.resolutions[key] = Resolution(tag: tag, path: path, resolvedAt: now)
        }
    }

    /// Forgets every resolution (a book was added, removed or read again).
    func forgetResolutions() {
        state.withLock { state in
            state.resolutions.removeAll()
            state.refreshing.removeAll()
        }
    }

    func bytes(for tag: String) -> ByteBuffer? {
        state.withLock { state in
            guard let found = state.bytes[tag] else { return nil }
            if let index = state.order.firstIndex(of: tag) {
                state.order.remove(at: index)
                state.order.append(tag)
            }
            return found
        }
    }

    /// Whether a file of `length` bytes is small enough to keep (no larger than the bound).
    func keeps(_ length: Int) -> Bool {
        length <= maxBytes
    }

    /// The bytes of `tag`: kept ones, else what `read` gives, kept. Callers asking for a tag
    /// that is being read wait for that one read rather than reading again.
    func bytes(for tag: String, read: @escaping @Sendable () async throws -> ByteBuffer) async throws -> ByteBuffer {
        if let kept = bytes(for: tag) { return kept }
        let (loading, isFirst) = loads.withLock { loads in
            if let running = loads[tag] {
                loads[tag]?.waiting += 1
                return (running.task, false)
            }
            let task = Task { try await read() }
            loads[tag] = (task, 1)
            return (task, true)
        }
        defer {
            if isFirst { loads.withLock { _ = $0.removeValue(forKey: tag) } }
        }
        let bytes = try await loading.value
        if isFirst { keep(bytes, for: tag) }
        return bytes
    }

    /// How many callers wait for the read of `tag` now (0: none in progress).
    func waiting(for tag: String) -> Int {
        loads.withLock { $0[tag]?.waiting ?? 0 }
    }

    func keep(_ buffer: ByteBuffer, for tag: String) {
        guard keeps(buffer.readableBytes) else { return }
        state.withLock { state in
            guard state.bytes[tag] == nil else { return }
            state.bytes[tag] = buffer
            state.order.append(tag)
            state.total += buffer.readableBytes
            while state.total > maxBytes, !state.order.isEmpty {
                let oldest = state.order.removeFirst()
                state.total -= state.bytes.removeValue(forKey: oldest)?.readableBytes ?? 0
            }
        }
    }
}
