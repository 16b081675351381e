/// Finds running heads, running feet and page numbers: lines near the top or foot of a page that recur at the
/// same place on other pages, their numbers aside ("THE SIGN OF FOUR 47", "— 12 —"), and a lone page number at
/// the very top or foot of a page.
public enum RunningLineFilter {
    /// How far from the top or the foot of a page a running line may sit, as a share of the page's height.
    static let band = 0.12
    /// How far apart two places may be and still be the same place, as a share of the page's height.
    static let tolerance = 0.015

    /// For each page, the indices (into its `lines`) of its running lines.
    public static func runningLines(in pages: [LayoutPage]) -> [Set<Int>] {
        var places: [String: [(page: Int, midY: Double)]] = [:]
        for (pageIndex, page) in pages.enumerated() {
            for line in candidates(on: page) {
                places[key(page.lines[line].text), default: []].append((pageIndex, page.lines[line].box.midY / page.height))
            }
        }
        let needed = min(3, max(2, pages.count / 2))
        return pages.enumerated().map { pageIndex, page in
            let candidates = candidates(on: page)
            let extremes = Set([candidates.first, candidates.last].compactMap { $0 })
            return Set(candidates.filter { line in
                let text = page.lines[line].text
                if extremes.contains(line), isPageNumber(text) { return true }
                let midY = page.lines[line].box.midY / page.height
                let pagesThere = Set((places[key(text)] ?? []).filter { abs($0.midY - midY) <= tolerance }.map(\.page))
                return pagesThere.count >= needed && pagesThere.contains(pageIndex)
            })
        }
    }

    /// The lines in the top or foot band of `page`, top to bottom.
    static func candidates(on page: LayoutPage) -> [Int] {
        let limit = page.height * band
        return page.lines.indices
            .filter { !page.lines[$0].words.isEmpty }
            .filter { page.lines[$0].box.y < limit || page.lines[$0].box.maxY > page.height - limit }
            .sorted { page.lines[$0].box.y < page.lines[$1].box.y }
    }

    /// The line's text with its numbers masked and its case and spacing folded, so heads that differ only in the
    /// page number compare equal.
    static func key(_ text: String) -> String {
        var result = ""
        var inNumber = false
        for character in text.lowercased() {
            if character.isNumber {
                if !inNumber { result.append("#") }
                inNumber = true
            } else {
                inNumber = false
                if !character.isWhitespace { result.append(character) }
            }
        }
        return result
    }

    /// Whether `text` is only a page number: digits or a roman numeral, perhaps with dashes or "Page".
    static func isPageNumber(_ text: String) -> Bool {
        var core = text.lowercased()
        if core.hasPrefix("page ") { core.removeFirst(5) }
        core = String(core.filter { !"-–—|[]() .".contains($0) })
        guard !core.isEmpty, core.count <= 8 else { return false }
        return core.allSatisfy(\.isNumber) || core.allSatisfy { "ivxlcdm".contains($0) }
    }
}
