import Foundation
import NarrateDomain

extension ExportJobs {
    /// Removes finished jobs, oldest first, with their files, while they are more than
    /// `maxKept`, hold more than `maxBytes`, or are older than `maxAge`. Never a job queued or
    /// running, nor one being downloaded; the count and bytes never remove the newest one.
    func enforceLimits() {
        let current = now()
        let over = jobs.values.filter(\.state.isOver).sorted { ($0.finished ?? $0.created, $0.id) < ($1.finished ?? $1.created, $1.id) }
        var kept = over.count
        var bytes = over.reduce(Int64(0)) { $0 + ($1.bytes ?? 0) }
        for (index, job) in over.enumerated() where downloads[job.id, default: 0] == 0 {
            let isNewest = index == over.count - 1
            let expired = current.timeIntervalSince(job.finished ?? job.created) > limits.maxAge.seconds
            guard expired || (!isNewest && (kept > limits.maxKept || bytes > limits.maxBytes)) else { continue }
            jobs[job.id] = nil
            try? FileManager.default.removeItem(atPath: folder(of: job.id))
            kept -= 1
            bytes -= job.bytes ?? 0
        }
    }

    /// Marks job `id` as being downloaded, so that the limits keep it.
    /// - Returns: whether there is such a job.
    func beginDownload(_ id: String) -> Bool {
        guard jobs[id] != nil else { return false }
        downloads[id, default: 0] += 1
        return true
    }

    /// Ends a download `beginDownload` began.
    func endDownload(_ id: String) {
        let left = downloads[id, default: 1] - 1
        downloads[id] = left > 0 ? left : nil
        if left <= 0 { enforceLimits() }
    }
}

/// Holds a job's download open for as long as its response body lives: released when the body
/// is written, or dropped unwritten.
final class DownloadHold: Sendable {
    let jobs: ExportJobs
    let id: String

    init(jobs: ExportJobs, id: String) {
        self.jobs = jobs
        self.id = id
    }

    deinit {
        Task { [jobs, id] in await jobs.endDownload(id) }
    }
}
