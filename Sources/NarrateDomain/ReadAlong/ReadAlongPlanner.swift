/// Decides what a read-along EPUB highlights, where and when: the timed cues of every export item,
/// found in the content documents in reading order (pure; the documents are already read).
public enum ReadAlongPlanner {
    /// A highlighted piece: its span in a document and its clip in an item's audio.
    public struct Clip: Sendable, Hashable {
        /// The span's id in its document.
        public var id: String
        /// The index of the export item whose audio holds the clip.
        public var audio: Int
        public var begin: Int
        /// Milliseconds from the start of the audio; after `begin`.
        public var end: Int
    }

    /// For one document: the spans to insert and their clips, in document (and audio) order.
    public struct DocumentPlan: Sendable, Hashable {
        public var pieces: [ReadAlongMarker.Piece] = []
        public var clips: [Clip] = []
    }

    /// The plan for each document (by index; documents with nothing spoken are absent), and how
    /// many pieces were not found in any document.
    public static func plan(
        documents: [XHTMLDocument?], timings: [ReadAlongTiming], granularity: ReadAlongGranularity
    ) -> (documents: [Int: DocumentPlan], unplaced: Int) {
        let texts = documents.map { $0?.scalars ?? [] }
        var aligner = ReadAlongAligner(documents: texts)
        var plans: [Int: DocumentPlan] = [:]
        var unplaced = 0
        var counter = 0
        var last: (document: Int, clip: Int)?

        func place(document: Int, scalars: ClosedRange<Int>, audio: Int, begin: Int, end: Int, prefix: String) {
            guard end > begin else { return }
            counter += 1
            let id = ReadAlongMarker.id(prefix: prefix, number: counter, avoiding: documents[document]?.ids ?? [])
            plans[document, default: DocumentPlan()].pieces.append(ReadAlongMarker.Piece(scalars: scalars, id: id))
            plans[document, default: DocumentPlan()].clips.append(Clip(id: id, audio: audio, begin: begin, end: end))
            last = (document, plans[document]!.clips.count - 1)
        }
        /// Audio of text that was not found stays with the clip before it, when that clip runs up to it.
        func extendLast(audio: Int, begin: Int, end: Int) {
            unplaced += 1
            guard let last, let clip = plans[last.document]?.clips[last.clip], clip.audio == audio, clip.end == begin, end > begin else { return }
            plans[last.document]?.clips[last.clip].end = end
        }

        func placeCue(_ cue: SubtitleCue, at match: ReadAlongAligner.Match, audio: Int) {
            let begin = SMILClock.milliseconds(cue.start)
            let end = SMILClock.milliseconds(cue.end)
            guard granularity == .word, !cue.words.isEmpty, let scalars = documents[match.document]?.scalars else {
                place(document: match.document, scalars: match.scalars, audio: audio, begin: begin, end: end, prefix: "nr-s")
                return
            }
            var from = match.scalars.lowerBound
            for (index, word) in cue.words.enumerated() {
                // A cue starts at its first word; the words' own times cover the rest.
                let wordBegin = index == 0 ? begin : SMILClock.milliseconds(word.start)
                let wordEnd = index + 1 == cue.words.count ? end : SMILClock.milliseconds(word.end)
                guard from <= match.scalars.upperBound,
                      let found = ReadAlongAligner.find(word.text, in: scalars, within: from...match.scalars.upperBound) else {
                    extendLast(audio: audio, begin: wordBegin, end: wordEnd)
                    continue
                }
                place(document: match.document, scalars: found, audio: audio, begin: wordBegin, end: wordEnd, prefix: "nr-w")
                from = found.upperBound + 1
            }
        }

        // Cues not found where the search stood (a short heading after skipped matter), and where
        // that was: they are looked for again before the next cue found.
        var pending: [(cue: SubtitleCue, audio: Int)] = []
        var gapStart = (document: 0, position: 0)
        func settlePending(before next: ReadAlongAligner.Match?) {
            for (cue, audio) in pending {
                if let next, let found = aligner.find(cue.text, after: &gapStart, before: next) {
                    placeCue(cue, at: found, audio: audio)
                } else {
                    extendLast(audio: audio, begin: SMILClock.milliseconds(cue.start), end: SMILClock.milliseconds(cue.end))
                }
            }
            pending = []
        }

        for (audio, timing) in timings.enumerated() {
            for cue in timing.cues {
                let before = (document: aligner.document, position: aligner.position)
                guard let match = aligner.next(cue.text) else {
                    if pending.isEmpty { gapStart = before }
                    pending.append((cue, audio))
                    continue
                }
                settlePending(before: match)
                placeCue(cue, at: match, audio: audio)
            }
        }
        settlePending(before: nil)
        return (plans, unplaced)
    }
}
