import Testing

@testable import NarrateDomain

@Suite struct ExportChunkerTests {
    /// Two files: the first with a short page, a long page (several chunks) and a blank page,
    /// the second with one short page.
    static let items: [ExportItem] = {
        let pages = [
            Page(index: 1, label: "i", text: "A short first page."),
            Page(index: 2, label: "ii", text: TextFixtures.longText(paragraphs: 4, sentences: 10)),
            Page(index: 3, label: "1", text: "  \n\n "),
            Page(index: 4, label: "2", text: "Another page, in the second file."),
        ]
        return [
            ExportItem(number: 1, fileStem: "001 - One", title: "One", pages: Array(pages[0...2]), chapters: [.init(title: "One", pageOffset: 0)]),
            ExportItem(number: 2, fileStem: "002 - Two", title: "Two", pages: [pages[3]], chapters: [.init(title: "Two", pageOffset: 0)]),
        ]
    }()

    @Test("Every chunk is the text found at its offset in its item's text")
    func offsetsPointIntoItemText() {
        // When
        let chunks = ExportChunker.chunks(of: Self.items)

        // Then
        #expect(chunks.count >= 4)
        for chunk in chunks {
            let text = ExportChunker.text(of: Self.items[chunk.itemIndex])
            #expect(TextFixtures.scalars(of: text, from: chunk.textOffset, length: chunk.text.unicodeScalars.count) == chunk.text)
            #expect(chunk.text.unicodeScalars.count <= NarrationPipeline.maxChunkScalars)
        }
    }

    @Test("Chunks come in reading order, each with its item, page index and page label")
    func chunksInReadingOrder() {
        // When
        let chunks = ExportChunker.chunks(of: Self.items)

        // Then
        #expect(chunks.map(\.itemIndex) == chunks.map(\.itemIndex).sorted())
        #expect(Set(chunks.map(\.pageIndex)) == [1, 2, 4])
        #expect(chunks.first?.pageLabel == "i")
        #expect(chunks.last == ExportChunk(itemIndex: 1, pageIndex: 4, pageLabel: "2", text: "Another page, in the second file.", textOffset: 0))
        for item in Self.items.indices {
            let offsets = chunks.filter { $0.itemIndex == item }.map(\.textOffset)
            #expect(offsets == offsets.sorted() && Set(offsets).count == offsets.count)
        }
        #expect(chunks.filter { $0.pageIndex == 2 }.map(\.text).joined(separator: " ").split(whereSeparator: \.isWhitespace)
            == Self.items[0].pages[1].text.split(whereSeparator: \.isWhitespace))
    }

    @Test("An item's text joins its pages with a blank line")
    func itemTextJoinsPages() {
        // Given
        let item = ExportItem(number: 1, fileStem: "001 - x", title: "x", pages: [.stub(index: 1, text: "One."), .stub(index: 2, text: "Two.")], chapters: [])

        // When
        let text = ExportChunker.text(of: item)

        // Then
        #expect(text == "One.\n\nTwo.")
        #expect(ExportChunker.chunks(of: [item]).map(\.textOffset) == [0, 6])
    }

    @Test("Shards partition the chunks: every chunk in exactly one shard, contiguous, in order", arguments: 1...7)
    func shardsPartitionChunks(count: Int) {
        // Given
        let chunks = ExportChunker.chunks(of: Self.items)

        // When
        let shards = (1...count).map { ExportChunker.shard(chunks, ExportShard(index: $0, count: count)) }

        // Then
        #expect(shards.flatMap { $0 } == chunks)
    }

    @Test("Shards of chunks of equal length are of equal size")
    func shardsAreBalanced() {
        // Given
        let chunks = (0..<12).map { ExportChunk(itemIndex: 0, pageIndex: $0 + 1, pageLabel: String($0 + 1), text: "Twelve chars", textOffset: 0) }

        // When
        let shards = (1...3).map { ExportChunker.shard(chunks, ExportShard(index: $0, count: 3)) }

        // Then
        #expect(shards.map(\.count) == [4, 4, 4])
        #expect(shards.flatMap { $0 } == chunks)
    }

    @Test("Shards of no chunks are empty")
    func shardsOfNothing() {
        // When
        let shard = ExportChunker.shard([], ExportShard(index: 1, count: 2))

        // Then
        #expect(shard.isEmpty)
    }
}
