/// A book's table of contents and page list, read from the EPUB 3 nav document or the EPUB 2 NCX.
struct EPUBNavigation {
    struct Entry {
        var title: String
        var depth: Int
        /// `entry` or `entry#fragment`.
        var target: String
    }

    struct PageTarget {
        var label: String
        var target: String
    }

    var toc: [Entry] = []
    var pageList: [PageTarget] = []

    /// Reads the nav document at `entry` (an XHTML file with `<nav epub:type="toc">`).
    static func fromNavDocument(_ root: XMLTree, entry: String) -> EPUBNavigation {
        let base = EPUBPath.directory(of: entry)
        var navigation = EPUBNavigation()
        let navs = root.all { $0.name == "nav" }
        if let toc = navs.first(where: { $0.epubTypes.contains("toc") }), let list = toc.first(where: { $0.name == "ol" || $0.name == "ul" }) {
            readList(list, depth: 0, entry: entry, base: base, into: &navigation.toc)
        }
        if let pages = navs.first(where: { $0.epubTypes.contains("page-list") }) {
            for link in pages.all(where: { $0.name == "a" }) {
                guard let href = link.attribute("href"), let target = resolveTarget(href, entry: entry, base: base) else { continue }
                let label = MarkupText.collapseWhitespace(link.text)
                if !label.isEmpty { navigation.pageList.append(PageTarget(label: label, target: target)) }
            }
        }
        return navigation
    }

    private static func readList(_ list: XMLTree, depth: Int, entry: String, base: String, into entries: inout [Entry]) {
        for item in list.children("li") {
            let label = item.children.first { $0.name == "a" || $0.name == "span" }
            let sublist = item.children.first { $0.name == "ol" || $0.name == "ul" }
            let title = label.map { MarkupText.collapseWhitespace($0.text) } ?? ""
            // An entry without a link (a heading over its children) starts where its first child does.
            let href = label?.attribute("href") ?? sublist?.first(where: { $0.name == "a" && $0.attribute("href") != nil })?.attribute("href")
            if !title.isEmpty, let href, let target = resolveTarget(href, entry: entry, base: base) {
                entries.append(Entry(title: title, depth: depth, target: target))
            }
            if let sublist {
                readList(sublist, depth: depth + 1, entry: entry, base: base, into: &entries)
            }
        }
    }

    /// Reads the NCX at `entry`: `navMap` for the contents, `pageList` for print pages.
    static func fromNCX(_ root: XMLTree, entry: String) -> EPUBNavigation {
        let base = EPUBPath.directory(of: entry)
        var navigation = EPUBNavigation()
        if let navMap = root.child("navMap") {
            readNavPoints(navMap, depth: 0, entry: entry, base: base, into: &navigation.toc)
        }
        for target in root.child("pageList")?.children("pageTarget") ?? [] {
            guard let src = target.child("content")?.attribute("src"),
                  let resolved = resolveTarget(src, entry: entry, base: base) else { continue }
            let label = MarkupText.collapseWhitespace(target.child("navLabel")?.text ?? target.attribute("value") ?? "")
            if !label.isEmpty { navigation.pageList.append(PageTarget(label: label, target: resolved)) }
        }
        return navigation
    }

    private static func readNavPoints(_ parent: XMLTree, depth: Int, entry: String, base: String, into entries: inout [Entry]) {
        for point in parent.children("navPoint") {
            let title = MarkupText.collapseWhitespace(point.child("navLabel")?.text ?? "")
            if !title.isEmpty, let src = point.child("content")?.attribute("src"),
               let target = resolveTarget(src, entry: entry, base: base) {
                entries.append(Entry(title: title, depth: depth, target: target))
            }
            readNavPoints(point, depth: depth + 1, entry: entry, base: base, into: &entries)
        }
    }

    private static func resolveTarget(_ href: String, entry: String, base: String) -> String? {
        let (path, fragment) = EPUBPath.split(href)
        let document = path.isEmpty ? entry : EPUBPath.resolve(path, from: base)
        guard let document else { return nil }
        return fragment.map { document + "#" + $0 } ?? document
    }
}
