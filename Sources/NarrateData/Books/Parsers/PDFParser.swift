import Foundation
import Glibc
import NarrateDomain

/// Reads PDFs with a text layer. Poppler runs in a child process (`narrate-pdf`, bounded in
/// memory and time, with no environment), which hands back positioned words; the pure layout
/// analysis (`PrintedLayoutAnalyzer`) turns them into paragraphs, chapters and notes, and
/// `PDFBookAssembler` into a `Book` with one page per printed page, labelled as printed.
///
/// A crash, a hang or a memory blow-up of the child is one `BookError` for this document.
public struct PDFParser: DocumentParserContract {
    public let format = DocumentFormat.pdf
    /// The document's user password, for an encrypted PDF; given to the child on a descriptor.
    public var password: String?
    /// The reader program; nil: as `PDFReaderLocator` finds it.
    public var executable: String?
    public var limits: PDFReaderLimits

    public init(password: String? = nil, executable: String? = nil, limits: PDFReaderLimits = PDFReaderLimits()) {
        self.password = password
        self.executable = executable
        self.limits = limits
    }

    /// Whether `data` starts like a PDF (`%PDF-` within its first kilobyte, as readers allow).
    public static func looksLikePDF(_ data: Data) -> Bool {
        let head = data.prefix(1024)
        return head.firstRange(of: Data("%PDF-".utf8)) != nil
    }

    public func parse(_ data: Data, path: String, options: ParseOptions) throws(BookError) -> Book {
        guard !data.isEmpty else { throw .emptyFile(path: path) }
        guard Self.looksLikePDF(data) else {
            throw .unreadableDocument(path: path, format: .pdf, reason: "it does not start with %PDF-, so it is not a PDF")
        }
        let program = try PDFReaderLocator.locate(explicit: executable).get()
        let outcome = try PDFReaderProcess(executable: program, limits: limits).run(data, password: password.flatMap { $0.isEmpty ? nil : $0 })
        let document = try decoded(outcome, path: path)
        return try PDFBookAssembler.book(document, path: path, options: options)
    }

    /// The book the reader's records `output` make, as if the reader had written them and exited:
    /// the wire decoder and the layout analysis without Poppler (the fuzz target's way in).
    public static func book(wire output: Data, path: String, options: ParseOptions = ParseOptions()) throws(BookError) -> Book {
        let outcome = PDFReaderProcess.Outcome(output: output, errorTail: "", ending: .exited(0), outputCut: false)
        return try PDFBookAssembler.book(try PDFParser().decoded(outcome, path: path), path: path, options: options)
    }

    /// The decoded output, or the error the child's end and its records say.
    func decoded(_ outcome: PDFReaderProcess.Outcome, path: String) throws(BookError) -> PDFWireDocument {
        switch outcome.ending {
        case .timedOut:
            throw .readerFailed(path: path, format: .pdf, reason: "reading it took longer than \(limits.deadline.components.seconds) s, so it was stopped")
        case let .signalled(signal):
            throw .readerFailed(path: path, format: .pdf, reason: Self.reason(signal: signal, errorTail: outcome.errorTail, limits: limits))
        case .exited:
            break
        }
        if outcome.outputCut {
            throw .unreadableDocument(path: path, format: .pdf, reason: "its text is larger than \(limits.maxOutputMiB) MiB, more than Narrate reads in one book")
        }
        let document: PDFWireDocument
        do {
            document = try PDFWireDecoder.decode(outcome.output)
        } catch {
            throw .readerFailed(path: path, format: .pdf, reason: "its reader's output could not be read (\(error)); narrate-pdf may be from another build")
        }
        if let (code, message) = document.error {
            switch code {
            case "password-required": throw .passwordRequired(path: path, given: false)
            case "wrong-password": throw .passwordRequired(path: path, given: true)
            case "too-large", "output-limit":
                throw .unreadableDocument(path: path, format: .pdf, reason: "it is larger than Narrate reads in one book (\(message))")
            default:
                throw .unreadableDocument(path: path, format: .pdf, reason: "it is damaged or cut short (Poppler: \(message.prefix(200)))")
            }
        }
        if case let .exited(code) = outcome.ending, code != 0 {
            throw .readerFailed(path: path, format: .pdf, reason: "its reader stopped with status \(code)\(Self.lastLine(outcome.errorTail).map { " (\($0))" } ?? "")")
        }
        guard document.pageCount != nil else {
            throw .readerFailed(path: path, format: .pdf, reason: "its reader stopped before the end")
        }
        return document
    }

    /// Why a child stopped by `signal` stopped: its CPU time ran out, its memory (an allocation
    /// failed, which glib and C++ report before aborting), or it crashed.
    static func reason(signal: Int32, errorTail: String, limits: PDFReaderLimits) -> String {
        let lowered = errorTail.lowercased()
        if signal == SIGXCPU || (signal == SIGKILL && lowered.isEmpty) {
            return "reading it used more than \(limits.cpuSeconds) s of CPU time, so it was stopped (a possible PDF bomb)"
        }
        if lowered.contains("bad_alloc") || lowered.contains("failed to allocate") || lowered.contains("out of memory") {
            return "reading it needed more than \(limits.memoryMiB) MiB of memory, so it was stopped (a possible PDF bomb)"
        }
        return "its reader crashed (signal \(signal))"
    }

    static func lastLine(_ text: String) -> String? {
        text.split(whereSeparator: \.isNewline).last.map { String($0.prefix(200)) }
    }
}
