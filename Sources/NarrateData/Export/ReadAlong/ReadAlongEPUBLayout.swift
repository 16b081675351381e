import Foundation
import NarrateDomain

/// Where Narrate's own files go in the EPUB: a `narrate` folder beside the package document.
struct ReadAlongEPUBLayout {
    let base: String
    let stylesheet: String
    let navigation: String
    let smilFolder: String
    /// Each export item's audio.
    let audio: [String]

    init(base: String, files: [ExportedFile]) {
        self.base = base
        let own = (base.isEmpty ? "" : base + "/") + "narrate"
        stylesheet = own + "/readalong.css"
        navigation = own + "/nav.xhtml"
        smilFolder = own + "/smil"
        audio = files.map { own + "/audio/" + String(format: "%03d", $0.number) + ".mp3" }
    }

    /// The overlay of spine document `number` (1-based), whose archive entry is `document`.
    func overlay(number: Int, item: String, document: String, clips: [ReadAlongPlanner.Clip]) -> Overlay {
        let entry = smilFolder + "/" + String(format: "%04d", number) + ".smil"
        let clips = clips.map { clip in
            MediaOverlayDocument.Clip(
                text: EPUBPath.relativeHref(from: smilFolder, to: document + "#" + clip.id),
                audio: EPUBPath.relativeHref(from: smilFolder, to: audio[clip.audio]),
                begin: clip.begin, end: clip.end
            )
        }
        return Overlay(id: "narrate-mo-\(number)", entry: entry, item: item, document: MediaOverlayDocument(clips: clips))
    }

    /// The SMIL media overlay of one content document, and its entry in the EPUB.
    struct Overlay {
        var id: String
        var entry: String
        /// The manifest id of its content document.
        var item: String
        var document: MediaOverlayDocument
    }
}
