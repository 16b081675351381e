/// Failures of reading, parsing or finding a book. The cases carry what a front end needs to word
/// them; `description` names no command, option or route of a front end.
public enum BookError: Error, Sendable, Equatable {
    case fileNotFound(path: String)
    case unreadable(path: String, reason: String)
    case unsupportedFormat(path: String)
    case noText(path: String)
    case pageNotFound(page: String, pageCount: Int)
    case bookNotFound(reference: String)
    case ambiguousBook(reference: String, matches: [String])
    case libraryFailed(reason: String)
    case endOfBook(title: String, pageCount: Int)
    /// The file is empty (0 bytes).
    case emptyFile(path: String)
    /// The file is not a ZIP archive, or it is truncated (no end of central directory).
    case notAZipArchive(path: String)
    /// The EPUB's `mimetype` entry does not say `application/epub+zip`.
    case wrongMimetype(path: String, found: String)
    /// The EPUB has no `META-INF/container.xml`.
    case missingContainer(path: String)
    /// `container.xml` names no package document, or one that is not in the archive.
    case missingPackageDocument(path: String, packagePath: String)
    /// An XML file of the book is not well-formed.
    case malformedXML(path: String, entry: String, reason: String)
    /// The package document has no `<spine>` (the reading order).
    case missingSpine(path: String)
    /// A spine `itemref` names an id that the manifest does not declare.
    case spineItemNotInManifest(path: String, idref: String)
    /// An archive entry name or a reference leaves the archive (`../`, absolute path).
    case unsafeEntryPath(path: String, entry: String)
    /// Two archive entries have the same name.
    case duplicateEntry(path: String, entry: String)
    /// An entry is larger (declared or actual) than the limit for one entry.
    case entryTooLarge(path: String, entry: String, limit: Int)
    /// The entries together are larger than the limit for a whole book.
    case archiveTooLarge(path: String, limit: Int)
    /// An entry cannot be decompressed or fails its checksum.
    case damagedEntry(path: String, entry: String, reason: String)
    /// A DOCX, ODT or FB2 file that cannot be read as one: a part missing or not well-formed,
    /// not a ZIP archive, too large. `reason` says what, in a clause ("it has no word/document.xml").
    case unreadableDocument(path: String, format: DocumentFormat, reason: String)
    /// The file declares a character encoding Narrate has no table for.
    case unsupportedEncoding(path: String, encoding: String)
    /// A PDF without a text layer on most of its pages: a scan, or pages that are images.
    case noTextLayer(path: String, imagePages: Int, pageCount: Int)
    /// An encrypted PDF that needs a user password, and none was given (`given` false) or the one
    /// given is wrong.
    case passwordRequired(path: String, given: Bool)
    /// The process that reads the document stopped before it was done: it crashed, ran out of
    /// time or memory. `reason` says which, in a clause ("it ran out of memory (1536 MiB)").
    case readerFailed(path: String, format: DocumentFormat, reason: String)
    /// The document's reader is not installed (the `narrate-pdf` program), `reason` says where it was looked for.
    case readerUnavailable(format: DocumentFormat, reason: String)
}

extension BookError: CustomStringConvertible {
    public var description: String {
        description(namingFile: filePath.map { "'\($0)'" } ?? "")
    }
}

extension BookError {
    /// The path of the book file this error is about; `nil` for the library's own errors.
    public var filePath: String? {
        switch self {
        case let .fileNotFound(path), let .unreadable(path, _), let .unsupportedFormat(path), let .noText(path),
            let .emptyFile(path), let .notAZipArchive(path), let .wrongMimetype(path, _), let .missingContainer(path),
            let .missingPackageDocument(path, _), let .malformedXML(path, _, _), let .missingSpine(path),
            let .spineItemNotInManifest(path, _), let .unsafeEntryPath(path, _), let .duplicateEntry(path, _),
            let .entryTooLarge(path, _, _), let .archiveTooLarge(path, _), let .damagedEntry(path, _, _),
            let .unreadableDocument(path, _, _), let .unsupportedEncoding(path, _), let .noTextLayer(path, _, _),
            let .passwordRequired(path, _), let .readerFailed(path, _, _):
            path
        case .pageNotFound, .bookNotFound, .ambiguousBook, .libraryFailed, .endOfBook, .readerUnavailable:
            nil
        }
    }

    /// The description with the book file called `file` where it names the file (`description`
    /// quotes its path): a front end that keeps the file under a name of its own, such as an
    /// upload, calls it otherwise.
    public func description(namingFile file: String) -> String {
        switch self {
        case .fileNotFound:
            "No file at \(file). Check the path."
        case let .unreadable(_, reason):
            "Could not read \(file): \(reason)."
        case .unsupportedFormat:
            "\(file) is not a format Narrate reads. Use an .epub, .pdf, .docx, .odt, .fb2, .txt, .html or .md file."
        case .noText:
            "\(file) has no text to read."
        case let .pageNotFound(page, pageCount):
            "There is no page \(page): the book has \(pageCount) page\(pageCount == 1 ? "" : "s") (1–\(pageCount))."
        case let .bookNotFound(reference):
            "No book matches '\(reference)'. Give a file path, or the library id or a title prefix of a book in the library."
        case let .ambiguousBook(reference, matches):
            "'\(reference)' matches several books: \(matches.joined(separator: "; ")). Use the library id or a longer title."
        case let .endOfBook(title, pageCount):
            "'\(title)' is read to the end (page \(pageCount) of \(pageCount)). Narrate a page by number, or start over from the first page."
        case let .libraryFailed(reason):
            "The book library could not be used: \(reason). Check that its folder is writable, or choose another library."
        case .emptyFile:
            "\(file) is empty (0 bytes). Copy or download the book again."
        case .notAZipArchive:
            "\(file) is not a readable EPUB: it is not a ZIP archive, or it is truncated (no central directory). Download or export the book again."
        case let .wrongMimetype(_, found):
            "\(file) is not an EPUB: its 'mimetype' entry says '\(found)' instead of 'application/epub+zip'. Export the book again as EPUB."
        case .missingContainer:
            "\(file) is a damaged EPUB: it has no META-INF/container.xml, so its content cannot be found. Repair it (e.g. with Sigil or Calibre) or export it again."
        case let .missingPackageDocument(_, packagePath):
            "\(file) is a damaged EPUB: its container.xml points to the package document '\(packagePath)', which is not in the archive. Repair it or export it again."
        case let .malformedXML(_, entry, reason):
            "\(file) is a damaged EPUB: '\(entry)' is not well-formed XML (\(reason)). Repair that file (e.g. with Sigil) or export the book again."
        case .missingSpine:
            "\(file) is a damaged EPUB: its package document has no <spine>, so the reading order is unknown. Repair it or export the book again."
        case let .spineItemNotInManifest(_, idref):
            "\(file) is a damaged EPUB: its spine lists '\(idref)', which the manifest does not declare. Repair it or export the book again."
        case let .unsafeEntryPath(_, entry):
            "\(file) was refused: its entry or reference '\(entry)' points outside the book (absolute path or '../'). Only open books from a source you trust."
        case let .duplicateEntry(_, entry):
            "\(file) was refused: the entry '\(entry)' appears more than once in the archive, so which one to read is ambiguous. Export the book again."
        case let .entryTooLarge(_, entry, limit):
            "\(file) was refused: the entry '\(entry)' unpacks to more than \(limit / 1_048_576) MiB (a possible ZIP bomb). Check where the file comes from."
        case let .archiveTooLarge(_, limit):
            "\(file) was refused: its entries unpack to more than \(limit / 1_048_576) MiB in all (a possible ZIP bomb). Check where the file comes from."
        case let .damagedEntry(_, entry, reason):
            "\(file) is damaged: the entry '\(entry)' cannot be read (\(reason)). Download or export the book again."
        case let .unreadableDocument(_, format, reason):
            "\(file) cannot be read as \(format.name): \(reason). Open it in the program that made it (or LibreOffice) and save it again, or export it again."
        case let .unsupportedEncoding(_, encoding):
            "\(file) declares the character encoding '\(encoding)', which Narrate does not read. Convert it to UTF-8 (with iconv, for instance) and add it again."
        case let .noTextLayer(_, imagePages, pageCount):
            "\(file) has no text to read: \(imagePages == pageCount ? (pageCount == 1 ? "its page is an image" : "all its \(pageCount) pages are images") : "\(imagePages) of its \(pageCount) pages are images") without a text layer (a scan). Add a text layer with OCR first (for instance 'ocrmypdf in.pdf out.pdf') and add that file."
        case let .passwordRequired(_, given):
            given
                ? "\(file) is encrypted and the password given for it is wrong. Give its user password."
                : "\(file) is encrypted: its text needs the document's user password. Give the password, or remove it with the program that made the file (qpdf --decrypt)."
        case let .readerFailed(_, format, reason):
            "\(file) could not be read as \(format.name): \(reason). The file may be damaged or built to harm readers; nothing was added."
        case let .readerUnavailable(format, reason):
            "\(format.name) files cannot be read here: \(reason)."
        }
    }
}
