import Foundation
import Glibc
import Testing

/// Bad input: one clear line on stderr, a non-zero exit, and no partial output anywhere.
@Suite("Errors, end to end")
struct ErrorEndToEndTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
        try Data("First paragraph of the book.\n\nSecond paragraph, with more words in it.\n".utf8).write(to: folder.url.appendingPathComponent("book.txt"))
    }

    private func expectCleanFailure(_ result: ProcessResult, mentioning words: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status != 0, sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "expected one line, got: \(result.stderr)", sourceLocation: sourceLocation)
        for word in words {
            #expect(result.stderr.contains(word), "\(result.stderr) should mention \(word)", sourceLocation: sourceLocation)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("out.wav")), sourceLocation: sourceLocation)
        #expect(!folder.allFiles().contains { $0.contains(".narrate-tmp-") }, sourceLocation: sourceLocation)
    }

    @Test("eSpeak crashing on a text is one line naming the text, exit 1, no file")
    func engineCrashInSay() async throws {
        // Given: eSpeak 1.51 aborts (buffer overflow) on this input
        try Data(String(repeating: "s'", count: 220).utf8).write(to: folder.url.appendingPathComponent("hostile.txt"))

        // When
        let result = try await NarrateProcess.narrate(["say", "-f", "hostile.txt", "-o", "out.wav", "--cache-dir", "cache"], in: folder.url)

        // Then: where this eSpeak crashes, one line; where it does not, audio
        if result.status == 0 {
            #expect(FileManager.default.fileExists(atPath: folder.path("out.wav")))
        } else {
            #expect(result.status == 1)
            expectCleanFailure(result, mentioning: ["eSpeak NG crashed", "s's's's'"])
        }
    }

    @Test("A crash on one chunk of a page names the page and the chunk")
    func engineCrashInPage() async throws {
        // When: the worker's child aborts on a word of the book's second paragraph
        let result = try await NarrateProcess.narrate(
            ["page", "book.txt", "1", "-o", "out.wav", "--cache-dir", "cache"], in: folder.url,
            environment: ["NARRATE_WORKER_CRASH_ON": "Second paragraph"]
        )

        // Then
        #expect(result.status == 1)
        expectCleanFailure(result, mentioning: ["Page 1:", "crashed (SIGABRT)", "\u{201C}First paragraph of the book."])
    }

    @Test("A text that hangs eSpeak is stopped at its deadline and reported in one line")
    func engineHang() async throws {
        let result = try await NarrateProcess.narrate(
            ["say", "This sentence never ends.", "-o", "out.wav", "--cache-dir", "cache"], in: folder.url,
            environment: ["NARRATE_WORKER_HANG_ON": "never ends", "NARRATE_ENGINE_TIMEOUT": "0.5"]
        )

        #expect(result.status == 1)
        expectCleanFailure(result, mentioning: ["deadline", "This sentence never ends."])
    }

    @Test("A text that makes eSpeak spin on a core is stopped once it has run for its deadline")
    func engineSpin() async throws {
        // Given: the engine spins (it is runnable the whole time, unlike a sleeping hang)
        // When
        let result = try await NarrateProcess.narrate(
            ["say", "This sentence goes round and round.", "-o", "out.wav", "--cache-dir", "cache"], in: folder.url,
            environment: ["NARRATE_WORKER_SPIN_ON": "round and round", "NARRATE_ENGINE_TIMEOUT": "0.5"]
        )

        // Then
        #expect(result.status == 1)
        expectCleanFailure(result, mentioning: ["deadline", "This sentence goes round and round."])
    }

    @Test("An engine kept waiting for a core by a busy machine is not taken for a hang: its deadline counts the time it could run")
    func busyMachineIsNoHang() async throws {
        // Given: the worker, at the lowest priority, shares one core with two busy programs, so
        // it gets about one hundredth of it and its 1 s deadline passes while it waits (a
        // worker that counted wall time stopped it there: "ran past its 1.0 s deadline"). The
        // kernel counts a wait for a core only once it ends, so the worker also looks at
        // whether its engine is waiting right now. How long all this takes depends on what
        // else the machine runs, so the bound on waiting is lifted to 1,000 deadlines: this
        // test fails on a worker that counts waiting as running, never on a slow machine.
        let core = try Self.firstAllowedCore()
        let worker = URL(fileURLWithPath: NarrateProcess.binary).deletingLastPathComponent().appendingPathComponent("narrate-worker").path
        let wrapper = try folder.writeExecutable("#!/bin/sh\nexec taskset -c \(core) nice -n 19 '\(worker)' \"$@\"\n", named: "slow-worker.sh")
        let busy = try (0..<2).map { _ in
            let loop = Process()
            loop.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
            // It spins while this test process lives (kill -0 is the shell's own): a test process
            // that crashed before its defer ran leaves no loop eating a core for the next runs.
            loop.arguments = ["-c", core, "sh", "-c", "while kill -0 $PPID 2>/dev/null; do :; done"]
            try loop.run()
            return loop
        }
        defer {
            for loop in busy {
                kill(loop.processIdentifier, SIGKILL)
                loop.waitUntilExit()
            }
        }
        let text = "Call me Ishmael. Some years ago, never mind how long precisely, having little or no money in my purse, and nothing particular to interest me on shore, I thought I would sail about a little and see the watery part of the world. It is a way I have of driving off the spleen and regulating the circulation."

        // When
        let result = try await NarrateProcess.narrate(
            ["say", text, "-o", "out.wav", "--no-cache"], in: folder.url,
            environment: ["NARRATE_WORKER": wrapper, "NARRATE_ENGINE_TIMEOUT": "1", "NARRATE_ENGINE_MOST_WAITED": "1000"]
        )

        // Then
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path("out.wav")))
    }

    /// The first core this process may run on (`taskset` takes no other).
    private static func firstAllowedCore() throws -> String {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let list = status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }?.split(separator: ":").last
        return String(list?.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber } ?? "0")
    }

    @Test("A missing worker program is one line that says how to fix it")
    func missingWorker() async throws {
        let result = try await NarrateProcess.narrate(
            ["say", "Hello.", "-o", "out.wav", "--no-cache"], in: folder.url,
            environment: ["NARRATE_WORKER": folder.path("nowhere/narrate-worker")]
        )

        #expect(result.status == 1)
        expectCleanFailure(result, mentioning: ["narrate-worker", "NARRATE_WORKER"])
    }

    @Test("-o /dev/null writes into the device: it stays a character device")
    func outputToDevice() async throws {
        let result = try await NarrateProcess.narrate(["say", "Into the void.", "-o", "/dev/null", "--no-cache"], in: folder.url)

        #expect(result.status == 0, "\(result.stderr)")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    @Test("What a killed say leaves behind is removed by the next run that writes into that folder")
    func killedRunIsCleanedUp() async throws {
        // Given: a long say killed with SIGKILL once its temporary file exists
        let text = try NarrateProcess.corpusFile("txt/pg972-devils-dictionary-1990s-header-ascii.txt")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: NarrateProcess.binary)
        process.arguments = ["say", "-f", text, "-o", folder.path("long.wav"), "--no-cache", "--quiet"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Watched and killed from a thread of its own: a test task that sleeps between looks can
        // be starved for minutes when the whole suite runs on two cores, and the say may finish
        // (its temporary renamed away) before the task looks again.
        let folderPath = folder.url.path
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread {
                let deadline = Date().addingTimeInterval(600)
                func temporaryExists() -> Bool {
                    ((try? FileManager.default.contentsOfDirectory(atPath: folderPath)) ?? []).contains { $0.contains(".long.wav.narrate-tmp-") }
                }
                while process.isRunning, Date() < deadline, !temporaryExists() {
                    usleep(20_000)
                }
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                done.resume()
            }.start()
        }
        #expect(folder.allFiles().contains { $0.contains(".long.wav.narrate-tmp-") }, "the killed run left its temporary file")

        // When
        let next = try await NarrateProcess.narrate(["say", "Next.", "-o", "next.wav", "--no-cache"], in: folder.url)

        // Then
        #expect(next.status == 0, "\(next.stderr)")
        #expect(!folder.allFiles().contains { $0.contains(".narrate-tmp-") }, "\(folder.allFiles())")
        #expect(!folder.allFiles().contains { $0.hasSuffix("long.wav") })
    }

    @Test("SSML asking for hours of silence is refused at once, in one line")
    func hugeSSMLBreak() async throws {
        let ssml = String(repeating: #"a<break time="99999999999s"/>"#, count: 30)

        let result = try await NarrateProcess.narrate(["say", "--ssml", ssml, "-o", "out.wav", "--cache-dir", "cache"], in: folder.url)

        #expect(result.status == 1)
        expectCleanFailure(result, mentioning: ["<break>", "60 seconds at most"])
        #expect(!folder.allFiles().contains { $0.hasPrefix("cache/objects/") && !$0.hasSuffix("/") && $0.split(separator: "/").count == 3 })
    }

    @Test("A 5 MB one-line text is refused before synthesis, with the way out")
    func hugeText() async throws {
        try Data(String(repeating: "word ", count: 1_000_000).utf8).write(to: folder.url.appendingPathComponent("huge.txt"))

        let result = try await NarrateProcess.narrate(["say", "-f", "huge.txt", "-o", "out.wav", "--cache-dir", "cache"], in: folder.url)

        #expect(result.status == 1)
        expectCleanFailure(result, mentioning: ["hours of audio", "narrate book"])
    }

    @Test("A message quoting input escapes its control characters: no escape sequence reaches the terminal")
    func controlCharactersInMessages() async throws {
        let name = "clear\u{1B}[2J\u{07}screen.txt"

        let result = try await NarrateProcess.narrate(["say", "-f", name, "-o", "out.wav", "--cache-dir", "cache"], in: folder.url)

        expectCleanFailure(result, mentioning: [#"clear\u{1B}[2J\u{7}screen.txt"#])
        #expect(!result.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    @Test("A read-only cache still serves its audio and lets new text be spoken, with one warning", .enabled(if: getuid() == 0, "needs root to mount"))
    func readOnlyCache() async throws {
        // Given: a cached sentence, then the folder remounted read-only
        let mount = folder.path("mount")
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        let cache = mount + "/cache"
        #expect(try await NarrateProcess.narrate(["say", "Kept.", "-o", "first.wav", "--cache-dir", cache], in: folder.url).status == 0)
        try await NarrateProcess.run("/bin/mount", ["--bind", mount, mount], in: folder.url)
        defer { _ = try? NarrateProcess.runBlocking("/bin/umount", [mount], in: folder.url, stdin: nil, environment: [:]) }
        try await NarrateProcess.run("/bin/mount", ["-o", "remount,ro,bind", mount], in: folder.url)

        // When
        let hit = try await NarrateProcess.narrate(["say", "Kept.", "-o", "second.wav", "--cache-dir", cache], in: folder.url)
        let new = try await NarrateProcess.narrate(["say", "Something new.", "-o", "third.wav", "--cache-dir", cache], in: folder.url)
        let stats = try await NarrateProcess.narrate(["cache", "stats", "--cache-dir", cache], in: folder.url)

        // Then
        #expect(hit.status == 0, "\(hit.stderr)")
        #expect(try identical(Data(contentsOf: folder.url.appendingPathComponent("first.wav")), Data(contentsOf: folder.url.appendingPathComponent("second.wav"))))
        #expect(new.status == 0, "\(new.stderr)")
        #expect(new.stderr.components(separatedBy: "warning").count == 2, "one warning: \(new.stderr)")
        #expect(stats.status == 0, "\(stats.stderr)")
    }

    @Test("A read-only library still lists and narrates; adding to it fails in one line", .enabled(if: getuid() == 0, "needs root to mount"))
    func readOnlyLibrary() async throws {
        // Given: a library with one book, then its folder remounted read-only
        let mount = folder.path("library")
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        let library = mount + "/library.sqlite"
        #expect(try await NarrateProcess.narrate(["add", "book.txt", "--library", library], in: folder.url).status == 0)
        try await NarrateProcess.run("/bin/mount", ["--bind", mount, mount], in: folder.url)
        defer { _ = try? NarrateProcess.runBlocking("/bin/umount", [mount], in: folder.url, stdin: nil, environment: [:]) }
        try await NarrateProcess.run("/bin/mount", ["-o", "remount,ro,bind", mount], in: folder.url)

        // When
        let list = try await NarrateProcess.narrate(["list", "--library", library], in: folder.url)
        let page = try await NarrateProcess.narrate(["page", "1", "1", "-o", "out.wav", "--library", library, "--no-cache"], in: folder.url)
        try Data("Another book, never added.\n".utf8).write(to: folder.url.appendingPathComponent("other.txt"))
        let add = try await NarrateProcess.narrate(["add", "other.txt", "--library", library], in: folder.url)

        // Then
        #expect(list.status == 0, "\(list.stderr)")
        #expect(String(decoding: list.stdout, as: UTF8.self).contains("book"))
        #expect(page.status == 0, "\(page.stderr)")
        #expect(add.status != 0)
        #expect(add.stderr.split(separator: "\n").count == 1, "\(add.stderr)")
        #expect(add.stderr.contains("readonly"), "\(add.stderr)")
    }

    @Test("An unknown voice is named, with close voices suggested")
    func unknownVoice() async throws {
        let result = try await NarrateProcess.narrate(["say", "Hello.", "--voice", "en-uss", "-o", "out.wav", "--cache-dir", "cache"], in: folder.url)
        expectCleanFailure(result, mentioning: ["en-uss", "en-us"])
    }

    @Test("Empty text is refused")
    func emptyText() async throws {
        let result = try await NarrateProcess.narrate(["say", "  \n ", "-o", "out.wav", "--cache-dir", "cache"], in: folder.url)
        expectCleanFailure(result, mentioning: ["no text"])
    }

    @Test("A page past the end says how many pages there are")
    func pagePastTheEnd() async throws {
        let result = try await NarrateProcess.narrate(["page", "book.txt", "40", "-o", "out.wav", "--cache-dir", "cache"], in: folder.url)
        expectCleanFailure(result, mentioning: ["40", "1 page"])
    }

    @Test("A missing file is named")
    func missingFile() async throws {
        let result = try await NarrateProcess.narrate(["say", "-f", "nowhere.txt", "-o", "out.wav", "--cache-dir", "cache"], in: folder.url)
        expectCleanFailure(result, mentioning: ["nowhere.txt"])
        let page = try await NarrateProcess.narrate(["page", "nowhere.txt", "1", "-o", "out.wav", "--cache-dir", "cache"], in: folder.url)
        expectCleanFailure(page, mentioning: ["nowhere.txt"])
    }

    @Test("A cache folder that cannot be written is reported, with the way out")
    func unwritableCache() async throws {
        let result = try await NarrateProcess.narrate(["say", "Hello.", "-o", "out.wav", "--cache-dir", "book.txt/cache"], in: folder.url)
        expectCleanFailure(result, mentioning: ["book.txt/cache", "--no-cache"])
    }

    @Test("Out-of-range parameters are refused before anything runs")
    func badRate() async throws {
        let result = try await NarrateProcess.narrate(["say", "Hello.", "--rate", "1000", "-o", "out.wav"], in: folder.url)
        #expect(result.status != 0)
        #expect(result.stderr.contains("--rate"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("out.wav")))
    }

    @Test("A full disk leaves no partial output and no temporary file")
    func fullDisk() async throws {
        // Given: a 300 KB file system, less than the speech needs
        let disk = folder.url.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        let mount = try await NarrateProcess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=300k", "tmpfs", disk.path], in: folder.url)
        guard mount.status == 0 else {
            Issue.record("cannot mount a small tmpfs here (not root?): \(mount.stderr)")
            return
        }
        defer { _ = try? NarrateProcess.runBlocking("/bin/umount", [disk.path], in: folder.url, stdin: nil, environment: [:]) }
        let text = String(repeating: "This sentence fills the small disk with speech. ", count: 20)

        // When
        let result = try await NarrateProcess.narrate(["say", text, "-o", "disk/out.wav", "--no-cache"], in: folder.url)

        // Then
        #expect(result.status != 0)
        #expect(result.stderr.contains("the disk is full; nothing was written. Free some space, then try again."), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).isEmpty)
    }
}
