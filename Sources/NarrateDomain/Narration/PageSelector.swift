/// Finds the page a user names: by its printed label first (`xii`, `12`), else by its
/// 1-based index; `#12` always means the index.
public enum PageSelector {
    public static func select(_ reference: String, in pages: [Page]) -> Page? {
        let trimmed = reference.trimmingWhitespace
        if trimmed.hasPrefix("#"), let index = Int(trimmed.dropFirst()) {
            return page(at: index, in: pages)
        }
        if let labelled = pages.first(where: { $0.label.caseInsensitiveEquals(trimmed) }) {
            return labelled
        }
        return Int(trimmed).flatMap { page(at: $0, in: pages) }
    }

    private static func page(at index: Int, in pages: [Page]) -> Page? {
        pages.indices.contains(index - 1) ? pages[index - 1] : nil
    }
}

extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool {
        lowercased() == other.lowercased()
    }
}
