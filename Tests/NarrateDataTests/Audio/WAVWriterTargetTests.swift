import Foundation
import Glibc
import NarrateDomain
import Testing

@testable import NarrateData

/// `-o` never replaces what it points at: a device, a FIFO or a socket is written through, a
/// symbolic link's target is replaced and the link kept.
@Suite("WAV output targets")
struct WAVWriterTargetTests {
    let folder: TemporaryDirectory
    static let audio = SpeechAudio(sampleRate: 22_050, samples: [1, 2, 3, -4])

    init() throws {
        folder = try TemporaryDirectory()
    }

    @Test("-o /dev/null writes into the device and leaves it a device, with no temporary file beside it")
    func deviceIsWrittenThrough() throws {
        // When
        let sut = try WAVWriter(path: "/dev/null")
        try sut.append(Self.audio)
        try sut.finish()

        // Then
        #expect(Self.fileType("/dev/null") == S_IFCHR)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "/dev").allSatisfy { !$0.contains(".narrate-tmp-") })
    }

    @Test("A FIFO is streamed into: its reader gets the whole WAV, and it stays a FIFO")
    func fifoIsWrittenThrough() async throws {
        // Given: a FIFO with a reader waiting on it
        let path = folder.path + "/pipe.wav"
        #expect(mkfifo(path, 0o600) == 0)
        // (opened without blocking, so the writer's open does not wait for it; then read to the end)
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        _ = fcntl(reader, F_SETFL, 0)
        let received = Self.readInBackground {
            defer { close(reader) }
            return FileHandle(fileDescriptor: reader).readDataToEndOfFile()
        }

        // When
        let sut = try WAVWriter(path: path)
        try sut.append(Self.audio)
        try sut.finish()

        // Then: a streamed header ("unknown length") and the samples
        let bytes = try await received.value
        #expect(bytes.count == 44 + 8)
        #expect(bytes.prefix(4) == Data("RIFF".utf8))
        #expect(bytes.suffix(8) == Data([1, 0, 2, 0, 3, 0, 0xFC, 0xFF]))
        #expect(Self.fileType(path) == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["pipe.wav"])
    }

    @Test("A Unix socket is connected to and written through")
    func socketIsWrittenThrough() async throws {
        // Given: a listening socket whose one connection is read to the end
        let path = folder.path + "/speech.sock"
        let listener = try Self.listen(at: path)
        defer { close(listener) }
        let received = Self.readInBackground { () throws -> Data in
            let connection = accept(listener, nil, nil)
            try #require(connection >= 0)
            defer { close(connection) }
            return FileHandle(fileDescriptor: connection).readDataToEndOfFile()
        }

        // When
        let sut = try WAVWriter(path: path)
        try sut.append(Self.audio)
        try sut.finish()

        // Then
        let bytes = try await received.value
        #expect(bytes.count == 44 + 8)
        #expect(Self.fileType(path) == S_IFSOCK)
    }

    @Test("A symbolic link is followed: its target is replaced whole, the link stays a link")
    func symlinkTargetIsReplaced() throws {
        // Given: out.wav → real.wav, which holds an older file
        let target = folder.path + "/real.wav"
        let link = folder.path + "/out.wav"
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        #expect(symlink("real.wav", link) == 0)

        // When
        let sut = try WAVWriter(path: link)
        try sut.append(Self.audio)
        try sut.finish()

        // Then
        #expect(Self.fileType(link, following: false) == S_IFLNK)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)).count == 44 + 8)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["out.wav", "real.wav"])
    }

    @Test("A dangling symbolic link gets its target created; a chain of links is followed to its end")
    func danglingAndChainedLinks() throws {
        // Given: first.wav → second.wav → made.wav (which does not exist yet)
        #expect(symlink("second.wav", folder.path + "/first.wav") == 0)
        #expect(symlink(folder.path + "/made.wav", folder.path + "/second.wav") == 0)

        // When
        let sut = try WAVWriter(path: folder.path + "/first.wav")
        try sut.append(Self.audio)
        try sut.finish()

        // Then
        #expect(Self.fileType(folder.path + "/made.wav", following: false) == S_IFREG)
        #expect(Self.fileType(folder.path + "/first.wav", following: false) == S_IFLNK)
        #expect(Self.fileType(folder.path + "/second.wav", following: false) == S_IFLNK)
    }

    @Test("Temporary files of killed writers are removed by the next writer in the folder; a running writer's are kept")
    func abandonedTemporariesAreRemoved() throws {
        // Given: a process that has exited, this process, and this PID with another start time
        let dead = try exitedProcessID()
        let me = ProcessIdentity.current
        let boot = ProcessIdentity.bootID
        let names = [
            ".a.wav.narrate-tmp-\(dead)-5-77",            // a killed writer
            ".b.wav.narrate-tmp-\(dead)-88",              // a killed writer, older name without start time
            ".c.wav.narrate-tmp-\(me.pid)-\(me.startTicks)-99",  // a writer still running
            ".d.wav.narrate-tmp-\(me.pid)-\(me.startTicks + 1)-99",  // its PID reused since
            ".e.wav.narrate-tmp-\(boot)-\(dead)-5-77",  // a killed writer, named with this boot
            ".f.wav.narrate-tmp-\(boot)-\(me.pid)-\(me.startTicks)-99",  // a writer still running, named with this boot
            ".g.wav.narrate-tmp-ffffffff-\(dead)-5-77",  // another machine's (or boot's) writer: not ours to judge
        ]
        for name in names {
            try Data("partial".utf8).write(to: URL(fileURLWithPath: folder.path + "/" + name))
        }

        // When
        let sut = try WAVWriter(path: folder.path + "/out.wav")
        sut.discard()

        // Then
        #expect(try Set(FileManager.default.contentsOfDirectory(atPath: folder.path)) == [names[2], names[5], names[6]])
    }

    // MARK: - Helpers

    static func fileType(_ path: String, following: Bool = true) -> mode_t? {
        var info = stat()
        let status = following ? stat(path, &info) : lstat(path, &info)
        return status == 0 ? info.st_mode & S_IFMT : nil
    }

    /// Runs a blocking read on a thread of its own (opening a FIFO blocks until a writer comes).
    static func readInBackground(_ read: @escaping @Sendable () throws -> Data) -> Task<Data, any Error> {
        Task {
            try await withCheckedThrowingContinuation { continuation in
                Thread { continuation.resume(with: Result { try read() }) }.start()
            }
        }
    }

    static func listen(at path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8) + [0]
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        try #require(Glibc.listen(fd, 1) == 0)
        return fd
    }
}
