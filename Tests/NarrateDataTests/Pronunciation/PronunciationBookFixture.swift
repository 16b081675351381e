import Foundation

/// The EPUB 3 book with its own pronunciations checked in unpacked under
/// `Tests/Fixtures/pronunciation-book`, zipped here as an EPUB is (`mimetype` first, stored).
enum PronunciationBookFixture {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/pronunciation-book")

    /// The archive's entries, with `replacing` files swapped for other contents.
    static func entries(replacing: [String: String] = [:]) throws -> [(String, Data)] {
        let names = ["mimetype", "META-INF/container.xml", "OEBPS/content.opf", "OEBPS/nav.xhtml", "OEBPS/text/chapter1.xhtml",
                     "OEBPS/lexicons/terms-ipa.pls", "OEBPS/lexicons/foods-xsampa.pls", "OEBPS/lexicons/french.pls"]
        return try names.map { name in
            if let replacement = replacing[name] { return (name, Data(replacement.utf8)) }
            return (name, try Data(contentsOf: folder.appendingPathComponent(name)))
        }
    }

    static func epub(replacing: [String: String] = [:]) throws -> Data {
        try EPUBFixture.archive(entries(replacing: replacing))
    }
}
