import Foundation
import Testing

@testable import NarrateDomain

@Suite struct SpeakTextUseCaseTests {
    let repositoryMock: TTSRepositoryMock
    let sut: SpeakTextUseCase
    let voice = VoiceProfile(voice: "en-us", rate: 190)

    init() {
        repositoryMock = TTSRepositoryMock()
        repositoryMock.audioForRequest = { .success(.wordMarked($0.text)) }
        sut = SpeakTextUseCase(repository: repositoryMock)
    }

    /// A long text with the messy whitespace of a real file: CRLF line ends, runs of spaces.
    private static let messyLongText = "  " + TextFixtures.longText(paragraphs: 3, sentences: 12, separator: "\r\n\r\n")
        .replacingOccurrences(of: ". ", with: ".   ") + " \r\n"

    private static func words(_ text: String) -> [Substring] {
        text.split(whereSeparator: \.isWhitespace)
    }

    /// Two requests are in flight at once, so the mock may see them in either order: sort
    /// them by where their text starts in `normalized`.
    private static func inTextOrder(_ requests: [SpeechRequest], of normalized: String) -> [SpeechRequest] {
        requests.sorted { first, second in
            let start = { (request: SpeechRequest) in normalized.range(of: request.text)?.lowerBound ?? normalized.endIndex }
            return start(first) < start(second)
        }
    }

    // MARK: - Requests

    @Test("A text past its bounds is refused before any request reaches the repository")
    func boundsComeFirst() async {
        // Given: SSML with a pause of 27 hours
        let ssml = #"<speak>a<break time="99999s"/></speak>"#

        // When / Then
        await #expect(throws: SpeechError.pauseTooLong(seconds: 99_999, limitSeconds: 60)) {
            _ = try await sut.execute(text: ssml, voice: voice, isSSML: true) { _ throws(SpeechError) in }
        }
        #expect(repositoryMock.requests.isEmpty)
    }

    @Test("A short text is normalized and sent as one request, cache first")
    func shortTextIsNormalizedIntoOneRequest() async throws {
        // Given
        let text = "  Hello,\r\n   world.\t "

        // When
        _ = try await sut.execute(text: text, voice: voice, isSSML: false) { _ throws(SpeechError) in }

        // Then
        #expect(repositoryMock.synthesizeCallCount == 1)
        #expect(repositoryMock.lastRequest == SpeechRequest(text: "Hello, world.", voice: voice, isSSML: false))
        #expect(repositoryMock.lastCachePolicy == .localFirst)
    }

    @Test("A long multi-paragraph text becomes several requests in text order, each of at most 1000 scalars, all cache first")
    func longTextIsChunkedInOrder() async throws {
        // Given
        let text = Self.messyLongText
        let normalized = TextNormalizer.normalize(text)

        // When
        _ = try await sut.execute(text: text, voice: voice, isSSML: false) { _ throws(SpeechError) in }

        // Then
        let requests = Self.inTextOrder(repositoryMock.requests, of: normalized)
        #expect(requests.count >= 3)
        #expect(requests.allSatisfy { $0.text.unicodeScalars.count <= NarrationPipeline.maxChunkScalars })
        #expect(requests.allSatisfy { $0.voice == voice && !$0.isSSML })
        #expect(repositoryMock.cachePolicies.allSatisfy { $0 == .localFirst })
        #expect(requests.flatMap { Self.words($0.text) } == Self.words(normalized))
        #expect(requests.allSatisfy { !$0.text.contains("\r") && !$0.text.contains("  ") })
    }

    // MARK: - Delivery

    @Test("onAudio receives each chunk in order, its word marks moved to the chunk's offset in the normalized text")
    func deliversChunksInOrderWithShiftedWordMarks() async throws {
        // Given
        let text = Self.messyLongText
        let normalized = TextNormalizer.normalize(text)
        var delivered: [SpeechAudio] = []

        // When
        _ = try await sut.execute(text: text, voice: voice, isSSML: false) { audio throws(SpeechError) in
            delivered.append(audio)
        }

        // Then
        let requests = Self.inTextOrder(repositoryMock.requests, of: normalized)
        #expect(delivered.count == requests.count)
        for (audio, request) in zip(delivered, requests) {
            let unshifted = SpeechAudio.wordMarked(request.text)
            #expect(audio.samples == unshifted.samples)
            #expect(audio.wordMarks.map(\.sampleOffset) == unshifted.wordMarks.map(\.sampleOffset))
        }
        let marks = delivered.flatMap(\.wordMarks)
        let markedWords = marks.map { TextFixtures.scalars(of: normalized, from: $0.textOffset, length: $0.textLength) }
        #expect(markedWords == Self.words(normalized).map(String.init))
        #expect(zip(marks, marks.dropFirst()).allSatisfy { $0.textOffset < $1.textOffset })
        #expect(delivered.last?.wordMarks.first.map { $0.textOffset > 1_000 } == true)
    }

    @Test("onPiece receives clips and audio in chunk order, each clip's word marks moved to its chunk's offset, and the summary counts both")
    func deliversPiecesInOrder() async throws {
        // Given: every other chunk is a clip of a cache entry (its samples stay in the cache)
        let text = Self.messyLongText
        let normalized = TextNormalizer.normalize(text)
        repositoryMock.pieceForRequest = { request in
            let audio = SpeechAudio.wordMarked(request.text)
            guard request.text.unicodeScalars.count % 2 == 0 else { return .success(.audio(audio)) }
            return .success(.clip(SpeechClip(cacheKey: "key of \(request.text.prefix(10))", sampleRate: audio.sampleRate, sampleCount: audio.samples.count, wordMarks: audio.wordMarks)))
        }
        var delivered: [SpeechPiece] = []

        // When
        let summary = try await sut.execute(text: SpeechText(text, isSSML: false), voice: voice) { (piece: SpeechPiece) throws(SpeechError) in
            delivered.append(piece)
        }

        // Then
        let requests = Self.inTextOrder(repositoryMock.pieceRequests, of: normalized)
        #expect(repositoryMock.synthesizeCallCount == 0)
        #expect(delivered.count == requests.count)
        #expect(delivered.contains { if case .clip = $0 { true } else { false } })
        for (piece, request) in zip(delivered, requests) {
            #expect(piece.sampleCount == SpeechAudio.wordMarked(request.text).samples.count)
            if case let .clip(clip) = piece { #expect(clip.cacheKey == "key of \(request.text.prefix(10))") }
        }
        let marks = delivered.flatMap(\.wordMarks)
        let markedWords = marks.map { TextFixtures.scalars(of: normalized, from: $0.textOffset, length: $0.textLength) }
        #expect(markedWords == Self.words(normalized).map(String.init))
        #expect(summary.chunkCount == delivered.count)
        #expect(summary.sampleCount == delivered.map(\.sampleCount).reduce(0, +))
    }

    @Test("Audio is delivered in text order even when a later chunk is ready first")
    func keepsOrderWhenLaterChunkFinishesFirst() async throws {
        // Given
        let text = Self.messyLongText
        let normalized = TextNormalizer.normalize(text)
        repositoryMock.delayForRequest = { request in
            request.text.hasPrefix("Sentence 1 of paragraph 1 ") ? .milliseconds(300) : nil
        }
        var delivered: [SpeechAudio] = []

        // When
        _ = try await sut.execute(text: text, voice: voice, isSSML: false) { audio throws(SpeechError) in
            delivered.append(audio)
        }

        // Then
        let requests = Self.inTextOrder(repositoryMock.requests, of: normalized)
        let completed = repositoryMock.completedRequests
        #expect(requests.count >= 3)
        #expect(completed.first != requests[0], "a later chunk should finish while the first one waits")
        #expect(completed.contains(requests[0]))
        #expect(delivered.map(\.samples) == requests.map { SpeechAudio.wordMarked($0.text).samples })
        let firstOffsets = delivered.compactMap { $0.wordMarks.first?.textOffset }
        #expect(firstOffsets == firstOffsets.sorted())
        #expect(firstOffsets.first == 0)
    }

    @Test("The summary counts the chunks and samples delivered")
    func summaryCountsChunksAndSamples() async throws {
        // Given
        let text = Self.messyLongText
        var deliveredSamples = 0

        // When
        let summary = try await sut.execute(text: text, voice: voice, isSSML: false) { audio throws(SpeechError) in
            deliveredSamples += audio.samples.count
        }

        // Then
        #expect(summary == SpeechSummary(chunkCount: repositoryMock.synthesizeCallCount, sampleCount: deliveredSamples, sampleRate: 22_050))
        #expect(summary.sampleCount == Self.words(text).count * 10)
    }

    // MARK: - SSML

    @Test("SSML is sent whole, trimmed but not normalized or cut, with isSSML set")
    func ssmlIsSentWhole() async throws {
        // Given
        let body = "<speak>" + TextFixtures.longText(paragraphs: 3, sentences: 12) + "</speak>"
        let text = " \n" + body + "\n\n"

        // When
        let summary = try await sut.execute(text: text, voice: voice, isSSML: true) { _ throws(SpeechError) in }

        // Then
        #expect(body.unicodeScalars.count > 1_000)
        #expect(repositoryMock.synthesizeCallCount == 1)
        #expect(repositoryMock.lastRequest == SpeechRequest(text: body, voice: voice, isSSML: true))
        #expect(repositoryMock.lastCachePolicy == .localFirst)
        #expect(summary.chunkCount == 1)
    }

    // MARK: - Validation

    @Test("A text with nothing to say throws emptyText without calling the repository", arguments: ["", "   ", "\n\n\t \r\n", "\u{00A0}\u{2029}"])
    func emptyTextThrows(text: String) async throws {
        // When / Then
        await #expect(throws: SpeechError.emptyText) {
            _ = try await sut.execute(text: text, voice: voice, isSSML: false) { _ throws(SpeechError) in }
        }
        #expect(repositoryMock.synthesizeCallCount == 0)
    }

    @Test("Whitespace-only SSML throws emptyText without calling the repository")
    func emptySSMLThrows() async throws {
        // When / Then
        await #expect(throws: SpeechError.emptyText) {
            _ = try await sut.execute(text: " \n ", voice: voice, isSSML: true) { _ throws(SpeechError) in }
        }
        #expect(repositoryMock.synthesizeCallCount == 0)
    }

    @Test("An out-of-range rate throws parameterOutOfRange without calling the repository")
    func outOfRangeRateThrows() async throws {
        // Given
        let fast = VoiceProfile(voice: "en-us", rate: 500)

        // When / Then
        await #expect(throws: SpeechError.parameterOutOfRange(name: "rate", value: 500, range: 80...450)) {
            _ = try await sut.execute(text: "Hello.", voice: fast, isSSML: false) { _ throws(SpeechError) in }
        }
        #expect(repositoryMock.synthesizeCallCount == 0)
    }

    // MARK: - Errors

    @Test("A repository error is thrown and no later chunk is delivered")
    func repositoryErrorStopsDelivery() async throws {
        // Given
        let text = Self.messyLongText
        let chunks = TextChunker.chunks(of: TextNormalizer.normalize(text), maxScalars: NarrationPipeline.maxChunkScalars)
        let failure = SpeechError.synthesisFailed(code: -1, voice: "en-us", textLength: chunks[1].text.count)
        repositoryMock.audioForRequest = { request in
            request.text == chunks[1].text ? .failure(failure) : .success(.wordMarked(request.text))
        }
        var delivered: [SpeechAudio] = []

        // When / Then
        await #expect(throws: failure) {
            _ = try await sut.execute(text: text, voice: voice, isSSML: false) { audio throws(SpeechError) in
                delivered.append(audio)
            }
        }
        #expect(chunks.count >= 3)
        #expect(delivered == [.wordMarked(chunks[0].text)])
    }

    @Test("An error thrown by onAudio is thrown and no later chunk is delivered")
    func consumerErrorStopsDelivery() async throws {
        // Given
        let failure = SpeechError.outputFailed(OutputError(path: "out.wav", cause: .noSpace))
        var deliveries = 0

        // When / Then
        await #expect(throws: failure) {
            _ = try await sut.execute(text: Self.messyLongText, voice: voice, isSSML: false) { _ throws(SpeechError) in
                deliveries += 1
                throw failure
            }
        }
        #expect(deliveries == 1)
    }

    @Test("No new chunk is sent to the repository once a chunk has failed")
    func noRequestStartsAfterAFailure() async throws {
        // Given: several chunks; the second fails. The first `lookahead` start together, one
        // more when the first is delivered; none after the failure.
        let text = TextFixtures.longText(paragraphs: 5, sentences: 12)
        let chunks = TextChunker.chunks(of: text, maxScalars: NarrationPipeline.maxChunkScalars)
        repositoryMock.audioForRequest = { request in
            request.text == chunks[1].text ? .failure(.synthesisFailed(code: -1, voice: "en-us", textLength: 0)) : .success(.wordMarked(request.text))
        }

        // When
        _ = try? await sut.execute(text: text, voice: voice, isSSML: false) { _ throws(SpeechError) in }
        try await Task.sleep(for: .milliseconds(300))

        // Then
        #expect(chunks.count >= 4)
        #expect(repositoryMock.synthesizeCallCount == NarrationPipeline.lookahead + 1, "no chunk should be asked for after the failed one")
    }
}
