import Foundation
import CDispatch
import CoreFoundation
import Glibc

/// Names for files being written: hidden, beside their destination (so `rename` is atomic),
/// unique per process, and naming the machine's boot and the process that writes them, so that
/// what a killed process left behind can be told from what a running one is writing. Outputs,
/// export files and audio cache entries all take these names.
public enum TemporaryFileName {
    static let marker = ".narrate-tmp-"
    /// How the audio cache named its temporary files before they took `marker`
    /// (`.tmp-<key>-<boot>-<pid>-<start>-<random>`): still recognised in the cache, so leftovers
    /// of older versions are removed.
    static let legacyCachePrefix = ".tmp-"

    /// Whether the process that writes a temporary file still runs.
    enum Writer: Equatable {
        case running
        case gone
        /// Another machine's or boot's process, or a name that does not say: only the file's
        /// age can tell.
        case unknown
    }

    /// `dir/.name.narrate-tmp-<boot>-<pid>-<start>-<random>` for a destination `dir/name`, where
    /// `<start>` is when this process started (against PID reuse) and `<boot>` this boot of
    /// this machine (a PID means nothing elsewhere).
    public static func beside(_ path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let owner = ProcessIdentity.current
        return "\(folder).\(name)\(marker)\(ProcessIdentity.bootID)-\(owner.pid)-\(owner.startTicks)-\(String(UInt64.random(in: .min ... .max), radix: 16))"
    }

    /// Whether `fileName` is a temporary file name (with `legacyCache`, also the cache's old names).
    static func isTemporary(_ fileName: String, legacyCache: Bool = false) -> Bool {
        fileName.contains(marker) || (legacyCache && fileName.hasPrefix(legacyCachePrefix))
    }

    /// The state of the process writing a temporary file of this name, or `nil` for other names.
    /// Earlier versions' output names carry no boot (`<pid>-<start>-<random>`) or no start time
    /// either (`<pid>-<random>`): then the PID is taken as this machine's.
    static func writer(of fileName: String, legacyCache: Bool = false) -> Writer? {
        if let range = fileName.range(of: marker) {
            let parts = fileName[range.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
            switch parts.count {
            case 4: return writer(boot: parts[0], pid: parts[1], start: parts[2])
            case 3: return writer(boot: nil, pid: parts[0], start: parts[1])
            case 2: return writer(boot: nil, pid: parts[0], start: nil)
            default: return .unknown
            }
        }
        guard legacyCache, fileName.hasPrefix(legacyCachePrefix) else { return nil }
        // `.tmp-<key>-<boot>-<pid>-<start>-<random>`; older ones are aged out.
        let parts = fileName.dropFirst(legacyCachePrefix.count).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 5 else { return .unknown }
        return writer(boot: parts[1], pid: parts[2], start: parts[3])
    }

    private static func writer(boot: Substring?, pid: Substring, start: Substring?) -> Writer {
        if let boot, boot != Substring(ProcessIdentity.bootID) { return .unknown }
        guard let pid = pid_t(String(pid)) else { return .unknown }
        let startTicks = start.map { UInt64(String($0)) ?? 0 } ?? 0
        return ProcessIdentity(pid: pid, startTicks: startTicks).isRunning ? .running : .gone
    }

    /// Whether `fileName` is a temporary file whose writer on this machine is gone (killed before
    /// it could remove it).
    public static func isAbandoned(_ fileName: String) -> Bool {
        writer(of: fileName) == .gone
    }

    /// Removes the abandoned temporary files in `folder`; returns how many. Those of writers
    /// elsewhere are left: only the cache, which knows its files, ages them out.
    @discardableResult
    public static func removeAbandoned(in folder: String) -> Int {
        guard let directory = opendir(folder.isEmpty ? "." : folder) else { return 0 }
        defer { closedir(directory) }
        var removed = 0
        while let entry = readdir(directory) {
            let name = DirectoryEntry.name(of: entry)
            guard name.contains(marker), isAbandoned(name) else { continue }
            if unlink((folder.isEmpty ? "" : folder + "/") + name) == 0 { removed += 1 }
        }
        return removed
    }
}
