/// The kinds of document Narrate reads.
public enum DocumentFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case plainText = "txt"
    case epub
    case html
    case markdown

    /// The format a file name's extension stands for, if any.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "txt", "text": self = .plainText
        case "epub": self = .epub
        case "html", "htm", "xhtml": self = .html
        case "md", "markdown": self = .markdown
        default: return nil
        }
    }
}
