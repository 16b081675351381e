/// One SMIL media overlay (EPUB 3 Media Overlays 3.2): the clips of one content document, each
/// a `par` pairing a span of the document with a stretch of audio.
public struct MediaOverlayDocument: Sendable, Hashable {
    public struct Clip: Sendable, Hashable {
        /// The span, relative to the SMIL file: `../Text/ch1.xhtml#nr-s4`.
        public var text: String
        /// The audio file, relative to the SMIL file.
        public var audio: String
        /// Milliseconds from the start of the audio file.
        public var begin: Int
        public var end: Int

        public init(text: String, audio: String, begin: Int, end: Int) {
            self.text = text
            self.audio = audio
            self.begin = begin
            self.end = end
        }
    }

    public var clips: [Clip]

    public init(clips: [Clip]) {
        self.clips = clips
    }

    /// The total length of the clips, which the package document declares as this overlay's
    /// `media:duration` (the book's is the exact sum of these).
    public var durationMilliseconds: Int {
        clips.reduce(0) { $0 + max($1.end - $1.begin, 0) }
    }

    /// The SMIL document.
    public func xml() -> String {
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<smil xmlns=\"http://www.w3.org/ns/SMIL\" xmlns:epub=\"http://www.idpf.org/2007/ops\" version=\"3.0\">",
            "<body>",
        ]
        for (index, clip) in clips.enumerated() {
            lines.append(
                "<par id=\"p\(index + 1)\"><text src=\"\(XMLText.escaped(clip.text))\"/>"
                    + "<audio src=\"\(XMLText.escaped(clip.audio))\" clipBegin=\"\(SMILClock.clipValue(clip.begin))\" clipEnd=\"\(SMILClock.clipValue(clip.end))\"/></par>"
            )
        }
        lines += ["</body>", "</smil>", ""]
        return lines.joined(separator: "\n")
    }
}
