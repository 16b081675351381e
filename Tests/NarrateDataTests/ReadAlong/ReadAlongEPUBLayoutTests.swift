@testable import NarrateData
@testable import NarrateDomain
import Testing

@Suite struct ReadAlongEPUBLayoutTests {
    private static func file(_ number: Int) -> ExportedFile {
        ExportedFile(
            number: number, fileName: "\(number).mp3", title: "", subtitleFileName: nil, pageLabels: [], chapterTitles: [], duration: 0,
            sampleCount: 0, byteCount: 0, cacheKeys: []
        )
    }

    @Test("Given a package document in a folder, when laid out, then Narrate's files go in a narrate folder beside it, audio numbered by item")
    func besideThePackage() {
        let sut = ReadAlongEPUBLayout(base: "OEBPS", files: [Self.file(1), Self.file(12)])

        #expect(sut.stylesheet == "OEBPS/narrate/readalong.css")
        #expect(sut.navigation == "OEBPS/narrate/nav.xhtml")
        #expect(sut.smilFolder == "OEBPS/narrate/smil")
        #expect(sut.audio == ["OEBPS/narrate/audio/001.mp3", "OEBPS/narrate/audio/012.mp3"])
    }

    @Test("Given a package document at the root, when laid out, then the narrate folder is at the root too")
    func atTheRoot() {
        let sut = ReadAlongEPUBLayout(base: "", files: [Self.file(3)])

        #expect(sut.stylesheet == "narrate/readalong.css")
        #expect(sut.audio == ["narrate/audio/003.mp3"])
    }

    @Test("Given clips of a spine document, when its overlay is made, then it is numbered, and its clips point from the SMIL folder to the spans and the audio")
    func overlay() {
        // Given
        let sut = ReadAlongEPUBLayout(base: "EPUB", files: [Self.file(1), Self.file(2)])
        let clips = [ReadAlongPlanner.Clip(id: "nr-s1", audio: 1, begin: 0, end: 1_500)]

        // When
        let overlay = sut.overlay(number: 7, item: "chapter-1", document: "EPUB/text/ch1.xhtml", clips: clips)

        // Then
        #expect(overlay.id == "narrate-mo-7")
        #expect(overlay.entry == "EPUB/narrate/smil/0007.smil")
        #expect(overlay.item == "chapter-1")
        #expect(overlay.document.clips == [MediaOverlayDocument.Clip(text: "../../text/ch1.xhtml#nr-s1", audio: "../audio/002.mp3", begin: 0, end: 1_500)])
    }
}
