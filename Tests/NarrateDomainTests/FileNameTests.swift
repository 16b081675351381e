import NarrateDomain
import Testing

/// The two file-name forms every front end and the export share.
@Suite("File names")
struct FileNameTests {
    @Test("A readable file name keeps the title's words and drops what a file name cannot hold", arguments: [
        ("Chapter 2. The Carpet-Bag.", "Chapter 2. The Carpet-Bag"),
        ("AC/DC: Live", "AC-DC- Live"),
        ("...Hidden", "Hidden"),
        ("Line\none", "Line one"),
        ("   ", "untitled"),
    ])
    func readable(title: String, expected: String) {
        // When / Then
        #expect(FileName.readable(title) == expected)
    }

    @Test("A readable file name is at most 80 characters")
    func readableIsBounded() {
        // When / Then
        #expect(FileName.readable(String(repeating: "a", count: 200)).count == 80)
    }

    @Test("A slug is lowercase letters and digits joined by single hyphens", arguments: [
        ("Moby-Dick; or, The Whale", "moby-dick-or-the-whale"),
        ("xii", "xii"),
        ("Élise — 2", "élise-2"),
        ("!!!", "book"),
    ])
    func slug(text: String, expected: String) {
        // When / Then
        #expect(FileName.slug(text) == expected)
    }

    @Test("A slug is at most 60 characters")
    func slugIsBounded() {
        // When / Then
        #expect(FileName.slug(String(repeating: "word ", count: 40)).count == 60)
    }
}
