import Foundation
import HTTPTypes
import Synchronization
import Testing
@testable import NarrateServer

/// What the finished exports may hold: a count, a byte quota and an age, oldest first, never a
/// job being downloaded; and what a failed job tells a client.
@Suite("ExportJobs limits")
struct ExportJobsLimitsTests {
    let helper = ExportJobsTests()

    /// A clock moved by hand.
    final class Clock: Sendable {
        let current = Mutex(Date(timeIntervalSince1970: 10_000))
        func advance(_ seconds: TimeInterval) { current.withLock { $0 += seconds } }
        var now: @Sendable () -> Date { { self.current.withLock { $0 } } }
    }

    private func run(_ jobs: ExportJobs, _ ids: [String], from start: TimeInterval = 0) async throws {
        for (index, id) in ids.enumerated() {
            _ = try await jobs.submit(helper.job(id, at: start + Double(index)))
            _ = try await helper.waitUntilOver(jobs, id)
        }
    }

    @Test("Given a byte quota for three files, when five exports finish, then the two oldest are removed with their folders")
    func byteQuota() async throws {
        // Given: each export makes a 3-byte file
        let directory = helper.folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let jobs = ExportJobs(directory: directory, limits: .init(maxBytes: 9), run: ExportJobsTests.RunRecorder().run, admit: {}, release: {})

        // When
        try await run(jobs, ["a", "b", "c", "d", "e"])

        // Then
        #expect(await jobs.all.map(\.id) == ["e", "d", "c"])
        #expect(!FileManager.default.fileExists(atPath: directory + "/a"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/b"))
        #expect(FileManager.default.fileExists(atPath: directory + "/c/files/book.m4b"))
    }

    @Test("Given a count limit, the oldest finished go first and the newest always stays, even alone over the quota")
    func countLimit() async throws {
        let directory = helper.folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let jobs = ExportJobs(directory: directory, limits: .init(maxBytes: 1 << 30, maxKept: 2), run: ExportJobsTests.RunRecorder().run, admit: {}, release: {})

        try await run(jobs, ["a", "b", "c"])

        #expect(await jobs.all.map(\.id) == ["c", "b"])
    }

    @Test("Given an age limit, when a finished export grows older than it, then it is removed at the next change; one being downloaded stays until its download ends")
    func ageAndDownloads() async throws {
        // Given
        let directory = helper.folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = Clock()
        let jobs = ExportJobs(directory: directory, limits: .init(maxAge: .seconds(3_600)), run: ExportJobsTests.RunRecorder().run, admit: {}, release: {}, now: clock.now)
        try await run(jobs, ["old", "held"])
        #expect(await jobs.beginDownload("held"))

        // When: two hours pass, and another export finishes
        clock.advance(7_200)
        try await run(jobs, ["new"], from: 100)

        // Then: the old one is gone, the one being downloaded is kept until its download ends
        #expect(await jobs.all.map(\.id) == ["new", "held"])
        await jobs.endDownload("held")
        #expect(await jobs.all.map(\.id) == ["new"])
    }

    @Test("Given an export larger than the whole quota, when it finishes, then it fails with a line naming --exports-max-bytes and its files are gone")
    func tooLarge() async throws {
        let directory = helper.folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let jobs = ExportJobs(directory: directory, limits: .init(maxBytes: 2), run: ExportJobsTests.RunRecorder().run, admit: {}, release: {})

        _ = try await jobs.submit(helper.job("big"))
        let job = try await helper.waitUntilOver(jobs, "big")

        #expect(job.state == .failed)
        #expect(job.error?.contains("--exports-max-bytes") == true)
        #expect(!FileManager.default.fileExists(atPath: directory + "/big/files"))
    }

    @Test("Given an export that fails naming a server folder, when a client reads the job, then it reads the disclosed message")
    func disclosedError() async throws {
        let directory = helper.folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let disclosure = ErrorDisclosure(folders: [directory], logger: RouteTestServer.logger)
        let jobs = ExportJobs(
            directory: directory,
            run: { _, folder, _ in throw APIError(.internalServerError, "cannot write \(folder)/x.m4b", code: "export_failed") },
            admit: {}, release: {}, disclose: { disclosure.disclosed($0, context: "export") })

        _ = try await jobs.submit(helper.job("bad"))
        let job = try await helper.waitUntilOver(jobs, "bad")

        #expect(job.state == .failed)
        #expect(job.error == "The service failed on this request; its log says why.")
        #expect(job.error?.contains(directory) == false)
    }
}
