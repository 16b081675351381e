/// Exports a book to audio files, resumably: what `narrate book` does, for any front end.
public protocol ExportBookUseCaseContract: Sendable {
    /// Finds the book, chooses its voice (`ChooseVoiceUseCase`: named, or by the book's
    /// language, with the lexicons in force) and exports it, telling `onEvent` first
    /// `.started` (the book, the voice and the folder), then `.progress` as files are made.
    /// - Parameters:
    ///   - reference: a file path (added to the library on first use), a library id, or a title prefix.
    ///   - options: an empty `directory` is a folder named after the book's title; a `nil`
    ///     `sourcePath` is the library's file of the book.
    /// - Throws: `ExportError` (`.book` for a book not found, `.speech` for an unknown voice, a
    ///   selection past the end, a folder that cannot be written, an encoder that fails).
    func execute(reference: String, voice: VoiceRequest, options: BookExportOptions, onEvent: @escaping @Sendable (ExportEvent) -> Void) async throws(ExportError) -> ExportSummary

    /// A book already in hand, read by `voice` as given (the book's own lexicons are added), as
    /// a stream of events ending with `.finished` (or the error).
    func events(book: Book, voice: VoiceProfile, options: BookExportOptions) -> AsyncThrowingStream<ExportEvent, any Error>
}

/// Exports a book through a `BookExportRepositoryContract` (the cache, the engine's workers, the
/// encoders and the manifest).
public struct ExportBookUseCase: ExportBookUseCaseContract {
    private let books: any GetBookDetailUseCaseContract
    private let voices: any ChooseVoiceUseCaseContract
    private let exporter: any BookExportRepositoryContract

    public init(books: any GetBookDetailUseCaseContract, voices: any ChooseVoiceUseCaseContract, exporter: any BookExportRepositoryContract) {
        self.books = books
        self.voices = voices
        self.exporter = exporter
    }

    public func execute(reference: String, voice request: VoiceRequest, options: BookExportOptions, onEvent: @escaping @Sendable (ExportEvent) -> Void) async throws(ExportError) -> ExportSummary {
        let book: LibraryBook
        do {
            book = try await books.execute(reference: reference)
        } catch {
            throw .book(error)
        }
        let choice: VoiceChoice
        do {
            choice = try await voices.execute(request, reading: book.book)
        } catch {
            throw .speech(error)
        }
        var options = options
        if options.directory.isEmpty { options.directory = FileName.slug(book.book.metadata.title) }
        if options.sourcePath == nil { options.sourcePath = book.sourcePath }
        onEvent(.started(book: book, voice: choice, directory: options.directory))
        return try await exporter.export(book: book.book, voice: choice.profile, options: options) { onEvent(.progress($0)) }
    }

    public func events(book: Book, voice: VoiceProfile, options: BookExportOptions) -> AsyncThrowingStream<ExportEvent, any Error> {
        let exporter = exporter
        return AsyncThrowingStream { continuation in
            let task = Task {
                do throws(ExportError) {
                    let summary = try await exporter.export(book: book, voice: voice.reading(book), options: options) { continuation.yield(.progress($0)) }
                    continuation.yield(.finished(summary))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
