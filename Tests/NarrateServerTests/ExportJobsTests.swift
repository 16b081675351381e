import Foundation
import HTTPTypes
import Synchronization
import Testing
@testable import NarrateServer

/// The export jobs' life apart from HTTP: one at a time, and what a restart finds.
@Suite("ExportJobs")
struct ExportJobsTests {
    /// Runs recorded, each making a small file; fails by default for a job named in `failing`.
    final class RunRecorder: Sendable {
        let calls = Mutex<[String]>([])
        let failing: Set<String>

        init(failing: Set<String> = []) { self.failing = failing }

        var run: ExportJobs.Run {
            { job, folder, progress in
                self.calls.withLock { $0.append(job.id) }
                if self.failing.contains(job.id) { throw APIError(.internalServerError, "The engine failed.") }
                progress(1, 2)
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                _ = FileManager.default.createFile(atPath: folder + "/book.m4b", contents: Data("m4b".utf8))
                return ("files/book.m4b", 3)
            }
        }
    }

    func job(_ id: String, state: ExportJob.State = .queued, at seconds: TimeInterval = 0) -> ExportJob {
        ExportJob(id: id, book_id: "1", title: "A Book", format: "m4b", voice: nil, speed: nil, chapters: nil, state: state, done: 0, total: 0,
                  created: Date(timeIntervalSince1970: 1_000 + seconds))
    }

    func folder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("narrate-exports-\(UUID().uuidString)").path
    }

    /// The job once it is over: its updates end then (no clock: a busy machine only slows it).
    func waitUntilOver(_ jobs: ExportJobs, _ id: String) async throws -> ExportJob {
        guard let updates = await jobs.updates(of: id) else { throw CancellationError() }
        var last: ExportJob?
        for await job in updates { last = job }
        guard let last, last.state.isOver else { throw CancellationError() }
        return last
    }

    @Test("Given jobs left queued and running by a service that stopped, when a new one starts, then both run again, oldest first, and end done")
    func resumesAfterRestart() async throws {
        // Given: two job files as a killed service leaves them
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for job in [job("second", state: .queued, at: 2), job("first", state: .running, at: 1), job("old", state: .done, at: 0)] {
            try FileManager.default.createDirectory(atPath: directory + "/" + job.id, withIntermediateDirectories: true)
            try JSONEncoder.exports.encode(job).write(to: URL(fileURLWithPath: directory + "/" + job.id + "/job.json"))
        }
        let recorder = RunRecorder()

        // When
        let jobs = ExportJobs(directory: directory, run: recorder.run, admit: {}, release: {})
        await jobs.resume()

        // Then
        #expect(try await waitUntilOver(jobs, "second").state == .done)
        #expect(try await waitUntilOver(jobs, "first").state == .done)
        #expect(recorder.calls.withLock { $0 } == ["first", "second"])
        #expect(await jobs.job("first")?.file_name == "files/book.m4b")
        // And the state is kept on disk
        let kept = try JSONDecoder.exports.decode(ExportJob.self, from: Data(contentsOf: URL(fileURLWithPath: directory + "/first/job.json")))
        #expect(kept.state == .done)
    }

    @Test("Given a job whose export fails, when it runs, then it ends failed with the reason, and the next job runs")
    func failure() async throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recorder = RunRecorder(failing: ["bad"])
        let jobs = ExportJobs(directory: directory, run: recorder.run, admit: {}, release: {})

        _ = try await jobs.submit(job("bad", at: 1))
        _ = try await jobs.submit(job("good", at: 2))

        let bad = try await waitUntilOver(jobs, "bad")
        #expect(bad.state == .failed)
        #expect(bad.error == "The engine failed.")
        #expect(try await waitUntilOver(jobs, "good").state == .done)
    }

    @Test("Given a job's updates being watched, when it runs, then the watcher sees it running and then done, and the stream ends")
    func updates() async throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let gate = Mutex(false)
        let jobs = ExportJobs(directory: directory, run: RunRecorder().run, admit: {
            while !gate.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        }, release: {})
        _ = try await jobs.submit(job("watched"))
        let updates = try #require(await jobs.updates(of: "watched"))

        gate.withLock { $0 = true }
        var states: [ExportJob.State] = []
        for await job in updates { states.append(job.state) }

        #expect(states.first == .queued)
        #expect(states.last == .done)
    }
}
