/// How an EPUB 2's XHTML documents are renamed when the read-along EPUB makes them EPUB 3 ones,
/// and how the links to them follow.
enum XHTMLRenaming {
    /// New names for the XHTML documents not named `.xhtml` (EPUBCheck warns about an EPUB 3
    /// content document named otherwise): `ch1.html` → `ch1.xhtml`.
    static func xhtmlNames(_ items: [ReadAlongSource.Item]) -> [String: String] {
        var taken = Set(items.map(\.entry))
        var renames: [String: String] = [:]
        for item in items where item.mediaType == ReadAlongEPUBBuilder.xhtml && !item.entry.lowercased().hasSuffix(".xhtml") {
            var stem = item.entry
            for suffix in [".html", ".htm"] where stem.lowercased().hasSuffix(suffix) {
                stem = String(stem.dropLast(suffix.count))
                break
            }
            var candidate = stem + ".xhtml"
            var number = 2
            while taken.contains(candidate) {
                candidate = "\(stem)-\(number).xhtml"
                number += 1
            }
            taken.insert(candidate)
            renames[item.entry] = candidate
        }
        return renames
    }

    /// A link in the document at `entry` to a renamed document, pointed at its new name.
    static func renamedLink(from entry: String, renames: [String: String]) -> (String) -> String? {
        let folder = EPUBPath.directory(of: entry)
        return { value in
            let (path, fragment) = EPUBPath.split(value)
            guard !renames.isEmpty, !path.isEmpty, !EPUBPath.isExternal(path),
                  let resolved = EPUBPath.resolve(path, from: folder), let renamed = renames[resolved] else { return nil }
            return EPUBPath.relativeHref(from: folder, to: renamed + (fragment.map { "#" + $0 } ?? ""))
        }
    }
}
