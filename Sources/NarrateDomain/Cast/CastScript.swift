/// The chunks of a text as a cast reads it: the narration in the narrator's voice, each quoted
/// part in its speaker's voice. Parts that one voice reads in a row are chunked together, as
/// one text is (the wordless marks between them aside), so a text without dialogue, or a cast of one voice, is cut exactly as it is
/// without a cast.
public enum CastScript {
    /// - Parameters:
    ///   - text: the text read (offsets in `analysis` count its Unicode scalars).
    ///   - analysis: its dialogue (`DialogueAnalyzer.analyze(text)`).
    /// - Returns: the chunks in reading order, offsets into `text`.
    public static func chunks(of text: String, cast: VoiceCast, analysis: DialogueAnalysis) -> [VoicedChunk] {
        let scalars = Array(text.unicodeScalars)
        var spans: [(start: Int, end: Int, voice: VoiceProfile)] = []
        // A run of narration with no word in it (the marks between two paragraphs of one
        // speech) is no span: the parts around it, of one voice, are read as one.
        func add(_ start: Int, _ end: Int, _ voice: VoiceProfile, narration: Bool = false) {
            guard start < end, !narration || scalars[start..<end].contains(where: isWordScalar) else { return }
            if let last = spans.last, last.voice == voice {
                spans[spans.count - 1].end = end
            } else {
                spans.append((start, end, voice))
            }
        }
        var position = 0
        for part in analysis.parts.sorted(by: { $0.quotation.start < $1.quotation.start }) {
            let start = max(part.quotation.start, position)
            let end = min(part.quotation.end, scalars.count)
            guard start < end else { continue }
            add(position, start, cast.narrator, narration: true)
            add(start, end, voice(of: part, in: analysis, cast: cast))
            position = end
        }
        add(position, scalars.count, cast.narrator, narration: true)
        if spans.count == 1 {
            return NarrationPipeline.chunks(of: text, voice: spans[0].voice).map { VoicedChunk(chunk: $0, voice: spans[0].voice) }
        }
        return spans.flatMap { span -> [VoicedChunk] in
            guard let (start, end) = spoken(scalars, span.start, span.end) else { return [] }
            var piece = String.UnicodeScalarView()
            piece.append(contentsOf: scalars[start..<end])
            return NarrationPipeline.chunks(of: String(piece), voice: span.voice).map { chunk in
                VoicedChunk(chunk: TextChunk(text: chunk.text, scalarOffset: chunk.scalarOffset + start), voice: span.voice)
            }
        }
    }

    /// The voice of a quoted part: its speaker's in the cast, else the dialogue voice.
    static func voice(of part: QuotedPart, in analysis: DialogueAnalysis, cast: VoiceCast) -> VoiceProfile {
        guard let speaker = part.speaker else { return cast.dialogue }
        return cast.voice(for: analysis.characters[speaker]) ?? cast.dialogue
    }

    /// The span without the marks and punctuation around it that say nothing (a narration's
    /// closing and opening quotation marks, the comma after a quote), or nil when nothing in it
    /// is a letter or a digit.
    static func spoken(_ scalars: [Unicode.Scalar], _ start: Int, _ end: Int) -> (Int, Int)? {
        guard let first = scalars[start..<end].firstIndex(where: isWordScalar) else { return nil }
        var last = end
        while last > first, isSilentEdge(scalars[last - 1]) { last -= 1 }
        return (first, last)
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    /// Whitespace, quotation marks and dashes: what may end a narration before a quotation opens.
    private static func isSilentEdge(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isWhitespace { return true }
        switch scalar.properties.generalCategory {
        case .initialPunctuation, .finalPunctuation, .dashPunctuation: return true
        default: return "\"'«»„‚‹›".unicodeScalars.contains(scalar)
        }
    }
}
