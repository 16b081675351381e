import HTTPTypes
import NarrateKit

/// A library error in the service's words: a missing book or page is 404, a book that cannot be
/// read 422, the library's own failure 500. No book file is named by its path on the server (an
/// upload is "the uploaded file", a book added on the server "the book's file"), and the
/// library's own failure names no folder: the full cause goes to the log as `detail`.
extension APIError {
    init(_ error: BookError) {
        switch error {
        case let .bookNotFound(reference):
            self = .notFound("No book has the id '\(reference)'; GET /v1/books lists the library.")
        case .fileNotFound:
            self = .notFound("The book's file is no longer where it was added from; the service's log says where. Add the book again.")
            detail = error.description
        case .pageNotFound, .endOfBook:
            self = APIError(.notFound, error.description, code: "page_not_found")
        case .libraryFailed:
            self = APIError(.internalServerError, "The book library could not be used; the service's log says why.", code: "library_failed", detail: error.description)
        case .ambiguousBook:
            self = .badRequest(error.description)
        case .unreadable, .unsupportedFormat, .noText, .emptyFile, .notAZipArchive, .wrongMimetype, .missingContainer,
            .missingPackageDocument, .malformedXML, .missingSpine, .spineItemNotInManifest, .unsafeEntryPath,
            .duplicateEntry, .entryTooLarge, .archiveTooLarge, .damagedEntry, .unreadableDocument, .unsupportedEncoding:
            // The upload's own problems: not a book, damaged, too large inside.
            let message = error.description(namingFile: error.filePath.map(Self.isUpload) == true ? "The uploaded file" : "The book's file")
            self = APIError(.unprocessableContent, message, code: "unreadable_book", detail: error.description)
        case .passwordRequired:
            // The service takes no password: a PDF's is for the command line, never sent or kept here.
            let message = error.description(namingFile: error.filePath.map(Self.isUpload) == true ? "The uploaded file" : "The book's file")
            self = APIError(.unprocessableContent, message, code: "encrypted_book", detail: error.description)
        case .noTextLayer:
            let message = error.description(namingFile: error.filePath.map(Self.isUpload) == true ? "The uploaded file" : "The book's file")
            self = APIError(.unprocessableContent, message, code: "no_text_layer", detail: error.description)
        case .readerFailed:
            let message = error.description(namingFile: error.filePath.map(Self.isUpload) == true ? "The uploaded file" : "The book's file")
            self = APIError(.unprocessableContent, message, code: "unreadable_book", detail: error.description)
        case .readerUnavailable:
            self = APIError(.internalServerError, "PDF books cannot be read by this service; its log says why.", code: "reader_unavailable", detail: error.description)
        }
    }

    /// Whether `path` is a file `NarrateEnvironment.storeUpload` keeps: `<folder>/uploads/<sha256>.<extension>`.
    static func isUpload(_ path: String) -> Bool {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.contains("'"), components.count >= 2, components[components.count - 2] == "uploads" else { return false }
        let name = components[components.count - 1]
        guard let dot = name.firstIndex(of: ".") else { return false }
        let hash = name[..<dot]
        let fileExtension = name[name.index(after: dot)...]
        return hash.count == 64 && hash.allSatisfy { $0.isHexDigit && !$0.isUppercase }
            && !fileExtension.isEmpty && fileExtension.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }
}
