import Synchronization
import Testing

@testable import NarrateDomain

@Suite struct ExportBookUseCaseTests {
    static let book = LibraryBook.stub(id: 3, title: "The Long Book: A Story", sourcePath: "/books/long.epub")
    static let choice = VoiceChoice(profile: VoiceProfile(voice: "nl"), reason: .language("nl"))
    static let summary = ExportSummary(files: [], skippedFiles: 0, writtenFiles: 0)

    let booksMock = GetBookDetailUseCaseMock()
    let voicesMock = ChooseVoiceUseCaseMock()
    let exporterMock = BookExportRepositoryMock()
    let sut: ExportBookUseCase

    init() {
        sut = ExportBookUseCase(books: booksMock, voices: voicesMock, exporter: exporterMock)
    }

    @Test("A reference is exported with the voice chosen for the book, into a folder named after it, from the library's file; started comes before progress")
    func exportsFromReference() async throws {
        // Given
        booksMock.result = .success(Self.book)
        voicesMock.result = .success(Self.choice)
        exporterMock.result = .success(Self.summary)
        exporterMock.progress = [ExportProgress(filesDone: 1, filesTotal: 2)]
        let events = Mutex<[String]>([])

        // When
        let summary = try await sut.execute(reference: "3", voice: VoiceRequest(), options: BookExportOptions(directory: "", format: .mp3)) { event in
            let line = switch event {
            case let .started(book, voice, directory): "started \(book.id) \(voice.profile.voice) \(directory)"
            case let .progress(progress): "progress \(progress.filesDone)"
            case .finished: "finished"
            }
            events.withLock { $0.append(line) }
        }

        // Then
        #expect(summary == Self.summary)
        #expect(events.withLock { $0 } == ["started 3 nl the-long-book-a-story", "progress 1"])
        #expect(exporterMock.calls == [.init(
            bookTitle: "The Long Book: A Story", voice: Self.choice.profile,
            options: BookExportOptions(directory: "the-long-book-a-story", format: .mp3, sourcePath: "/books/long.epub")
        )])
    }

    @Test("A folder and source given are kept")
    func keepsGivenFolder() async throws {
        // Given
        booksMock.result = .success(Self.book)
        voicesMock.result = .success(Self.choice)
        exporterMock.result = .success(Self.summary)

        // When
        _ = try await sut.execute(reference: "3", voice: VoiceRequest(), options: BookExportOptions(directory: "out", sourcePath: "/elsewhere.epub")) { _ in }

        // Then
        #expect(exporterMock.calls.map(\.options) == [BookExportOptions(directory: "out", sourcePath: "/elsewhere.epub")])
    }

    @Test("A book not found and a voice not found stop before anything is exported")
    func errorsExportNothing() async throws {
        // Given
        booksMock.result = .failure(.bookNotFound(reference: "9"))

        // When / Then
        await #expect(throws: ExportError.book(.bookNotFound(reference: "9"))) {
            try await sut.execute(reference: "9", voice: VoiceRequest(), options: BookExportOptions(directory: "out")) { _ in }
        }

        // Given
        booksMock.result = .success(Self.book)
        voicesMock.result = .failure(.voiceNotFound("xx", suggestions: []))

        // When / Then
        await #expect(throws: ExportError.speech(.voiceNotFound("xx", suggestions: []))) {
            try await sut.execute(reference: "3", voice: VoiceRequest(name: "xx"), options: BookExportOptions(directory: "out")) { _ in }
        }
        #expect(exporterMock.calls.isEmpty)
    }

    @Test("A book in hand streams progress, then finished, read by the voice with the book's lexicons")
    func eventsForBookInHand() async throws {
        // Given
        var book = Self.book.book
        let lexicon = PronunciationLexicon(name: "OEBPS/l.pls", language: nil, digest: "d", entries: [])
        book.lexicons = [lexicon]
        exporterMock.result = .success(Self.summary)
        exporterMock.progress = [ExportProgress(filesDone: 1)]

        // When
        var seen: [String] = []
        for try await event in sut.events(book: book, voice: VoiceProfile(voice: "en-us"), options: BookExportOptions(directory: "out")) {
            switch event {
            case .started: seen.append("started")
            case .progress: seen.append("progress")
            case .finished: seen.append("finished")
            }
        }

        // Then
        #expect(seen == ["progress", "finished"])
        #expect(exporterMock.calls.map(\.voice) == [VoiceProfile(voice: "en-us", lexicons: [lexicon])])
    }
}
