/// Turns a book into audio files through the cache, resumably: the export's effects (engine
/// workers, encoders, manifest) behind one call. Implemented in NarrateData (`BookExporter`).
public protocol BookExportRepositoryContract: Sendable {
    /// Exports `book` read by `voice` (its lexicons in force, the book's included) as `options`
    /// say, reporting progress through `onProgress`.
    /// - Throws: `ExportError` (a selection past the end, a folder that cannot be written, an
    ///   encoder that fails, speech errors).
    func export(book: Book, voice: VoiceProfile, options: BookExportOptions, onProgress: @escaping @Sendable (ExportProgress) -> Void) async throws(ExportError) -> ExportSummary
}
