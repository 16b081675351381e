import Foundation
import NarrateDomain

/// A Piper voices repository's `voices.json`: an object keyed by voice name, each with
/// `"files": {"<relative path>": {"size_bytes": N, "md5_digest": "hex"}, …}`.
enum PiperVoiceIndex {
    /// The voices `data` lists, by name; entries without files are left out.
    /// - Throws: `VoiceInstallError.invalidIndex` when `data` is not such an object.
    static func parse(_ data: Data, url: String) throws(VoiceInstallError) -> [String: PiperVoiceIndexEntry] {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw .invalidIndex(url: url, reason: "it is not a JSON object of voices")
        }
        var entries: [String: PiperVoiceIndexEntry] = [:]
        for (name, value) in object {
            guard let voice = value as? [String: Any], let files = voice["files"] as? [String: Any] else { continue }
            var listed: [String: PiperVoiceIndexEntry.File] = [:]
            for (path, facts) in files {
                guard let facts = facts as? [String: Any], let size = (facts["size_bytes"] as? NSNumber)?.int64Value, let md5 = facts["md5_digest"] as? String else { continue }
                listed[path] = PiperVoiceIndexEntry.File(bytes: size, md5: md5.lowercased())
            }
            entries[name] = PiperVoiceIndexEntry(name: name, files: listed)
        }
        guard !entries.isEmpty else { throw .invalidIndex(url: url, reason: "it lists no voices with files") }
        return entries
    }
}
