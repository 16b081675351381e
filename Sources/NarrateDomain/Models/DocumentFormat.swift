/// The kinds of document Narrate reads.
public enum DocumentFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case plainText = "txt"
    case epub
    case html
    case markdown
    /// Office Open XML word processing (Word, LibreOffice, pandoc).
    case docx
    /// OpenDocument text (LibreOffice, pandoc).
    case odt
    /// FictionBook 2, plain or zipped (`.fb2.zip`).
    case fb2
    /// PDF with a text layer, read by Poppler in a child process (`narrate-pdf`).
    case pdf

    /// The format a file name's extension stands for, if any.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "txt", "text": self = .plainText
        case "epub": self = .epub
        case "html", "htm", "xhtml": self = .html
        case "md", "markdown": self = .markdown
        case "docx": self = .docx
        case "odt": self = .odt
        case "fb2": self = .fb2
        case "pdf": self = .pdf
        default: return nil
        }
    }

    /// What the format is called in messages and listings ("EPUB", "DOCX").
    public var name: String {
        switch self {
        case .plainText: "plain text"
        case .epub: "EPUB"
        case .html: "HTML"
        case .markdown: "Markdown"
        case .docx: "DOCX"
        case .odt: "ODT"
        case .fb2: "FB2"
        case .pdf: "PDF"
        }
    }

    /// Whether a file with this extension may hold a book: a format's own extension, none, or
    /// `zip` (an EPUB or a zipped FB2, told apart by their content).
    public static func mayHoldBook(fileExtension: String) -> Bool {
        fileExtension.isEmpty || fileExtension.lowercased() == "zip" || DocumentFormat(fileExtension: fileExtension) != nil
    }
}
