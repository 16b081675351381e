/// Finds where a printed document's chapters start: at its outline's destinations when it has an outline, else at
/// the headings set at the top of pages.
public enum ChapterFinder {
    /// How far above a destination the heading it points to may start, in points.
    static let slack = 30.0

    /// The chapters, in the outline's order or the headings'; empty when there is neither.
    public static func chapters(outline: [LayoutOutlineEntry], paragraphs: [LayoutParagraph]) -> [LayoutChapter] {
        outline.isEmpty ? fromHeadings(paragraphs) : fromOutline(outline, paragraphs: paragraphs)
    }

    static func fromOutline(_ outline: [LayoutOutlineEntry], paragraphs: [LayoutParagraph]) -> [LayoutChapter] {
        outline.compactMap { entry in
            let index = paragraphs.firstIndex { paragraph in
                paragraph.page > entry.page
                    || (paragraph.page == entry.page && paragraph.top >= (entry.top ?? -.infinity) - slack)
            }
            return index.map { LayoutChapter(title: entry.title, depth: entry.depth, paragraphIndex: $0) }
        }
    }

    /// One chapter per page that starts with headings, titled by them.
    static func fromHeadings(_ paragraphs: [LayoutParagraph]) -> [LayoutChapter] {
        var chapters: [LayoutChapter] = []
        for (index, paragraph) in paragraphs.enumerated() where paragraph.isHeading {
            let previous = index > 0 ? paragraphs[index - 1] : nil
            if let previous, previous.isHeading, previous.page == paragraph.page, !chapters.isEmpty {
                chapters[chapters.count - 1].title += " " + paragraph.text
            } else {
                chapters.append(LayoutChapter(title: paragraph.text, paragraphIndex: index))
            }
        }
        return chapters
    }
}
