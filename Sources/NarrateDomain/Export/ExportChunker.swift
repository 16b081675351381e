/// The pieces of text an export synthesizes, in reading order.
public enum ExportChunker {
    /// Every chunk of every item; text offsets are relative to the item's text, whose pages are
    /// joined by a blank line (see `text(of:)`).
    /// `voice`: a neural voice (Piper, Kokoro) is given each page's first sentence alone (see
    /// `NarrationPipeline.chunks`).
    /// `cast`: who reads each file's narration and quotations (`CastScript`), the speakers found
    /// in the file's text; each chunk then carries its voice.
    public static func chunks(of items: [ExportItem], voice: VoiceProfile? = nil, cast: VoiceCast? = nil) -> [ExportChunk] {
        var chunks: [ExportChunk] = []
        for (itemIndex, item) in items.enumerated() {
            var pageStart = 0
            let dialogue = cast.map { _ in DialogueAnalyzer.analyze(text(of: item)) }
            for (pageOffset, page) in item.pages.enumerated() {
                let length = page.text.unicodeScalars.count
                let pageChunks: [VoicedChunk?]
                if let cast, let dialogue {
                    pageChunks = CastScript.chunks(of: page.text, cast: cast, analysis: dialogue.slice(pageStart, pageStart + length))
                } else {
                    let chunks = voice.map { NarrationPipeline.chunks(of: page.text, voice: $0) } ?? TextChunker.chunks(of: page.text, maxScalars: NarrationPipeline.maxChunkScalars)
                    pageChunks = chunks.map { VoicedChunk(chunk: $0, voice: voice ?? .narrator) }
                }
                for case let voiced? in pageChunks {
                    chunks.append(ExportChunk(
                        itemIndex: itemIndex, pageIndex: page.index, pageLabel: page.label, text: voiced.chunk.text,
                        textOffset: pageStart + voiced.chunk.scalarOffset, pageOffset: pageOffset, voice: cast == nil ? nil : voiced.voice
                    ))
                }
                pageStart += length + 2
            }
        }
        return chunks
    }

    /// The item's whole text, as the chunks' offsets count it.
    public static func text(of item: ExportItem) -> String {
        item.pages.map(\.text).joined(separator: "\n\n")
    }

    /// The chunks of shard `shard.index` of `shard.count`: contiguous runs of about equal text length.
    public static func shard(_ chunks: [ExportChunk], _ shard: ExportShard) -> [ExportChunk] {
        let total = chunks.reduce(0) { $0 + $1.text.utf8.count }
        let share = Double(total) / Double(max(shard.count, 1))
        var done = 0
        return chunks.filter { chunk in
            let position = Double(done) + Double(chunk.text.utf8.count) / 2
            done += chunk.text.utf8.count
            let owner = min(Int(position / share), shard.count - 1) + 1
            return owner == shard.index
        }
    }
}
