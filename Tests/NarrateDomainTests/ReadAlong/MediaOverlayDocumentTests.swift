import NarrateDomain
import Testing

@Suite struct MediaOverlayDocumentTests {
    @Test("one par per clip, with the text fragment and clip times in seconds; the duration is the clips' sum")
    func smil() {
        // Given
        let sut = MediaOverlayDocument(clips: [
            .init(text: "../text/a.xhtml#s1", audio: "../audio/001.mp3", begin: 0, end: 1_500),
            .init(text: "../text/a.xhtml#s2", audio: "../audio/001.mp3", begin: 1_500, end: 62_007),
        ])

        // When
        let xml = sut.xml()

        // Then
        #expect(xml.contains("<par id=\"p1\"><text src=\"../text/a.xhtml#s1\"/><audio src=\"../audio/001.mp3\" clipBegin=\"0.000s\" clipEnd=\"1.500s\"/></par>"))
        #expect(xml.contains("clipBegin=\"1.500s\" clipEnd=\"62.007s\""))
        #expect(sut.durationMilliseconds == 62_007)
        #expect(SMILClock.clockValue(sut.durationMilliseconds) == "0:01:02.007")
    }

    @Test("the package declares each overlay's duration, their exact sum, and the highlight class without refines")
    func package() {
        // Given
        let sut = ReadAlongPackageDocument(
            identifier: "urn:x", title: "Fish & Chips", language: "en", creators: ["A"], modified: "2024-01-01T00:00:00Z",
            activeClass: "-epub-media-overlay-active",
            overlayDurations: [.init(id: "mo-1", milliseconds: 1_500), .init(id: "mo-2", milliseconds: 3_600_001)],
            items: [
                .init(id: "c1", href: "c1.xhtml", mediaType: "application/xhtml+xml", mediaOverlay: "mo-1"),
                .init(id: "mo-1", href: "narrate/smil/0001.smil", mediaType: "application/smil+xml"),
            ],
            spine: [.init(idref: "c1")]
        )

        // When
        let xml = sut.xml()

        // Then
        #expect(xml.contains("<meta property=\"media:duration\" refines=\"#mo-1\">0:00:01.500</meta>"))
        #expect(xml.contains("<meta property=\"media:duration\" refines=\"#mo-2\">1:00:00.001</meta>"))
        #expect(xml.contains("<meta property=\"media:duration\">1:00:01.501</meta>"))
        #expect(xml.contains("<meta property=\"media:active-class\">-epub-media-overlay-active</meta>"))
        #expect(xml.contains("<meta property=\"dcterms:modified\">2024-01-01T00:00:00Z</meta>"))
        #expect(xml.contains("media-overlay=\"mo-1\""))
        #expect(xml.contains("<dc:title>Fish &amp; Chips</dc:title>"))
    }

    @Test("the navigation document nests entries by depth and closes every list")
    func navigation() {
        let sut = NavigationDocument(title: "T", language: "en", entries: [
            .init(title: "One", href: "a.xhtml", depth: 0),
            .init(title: "One.1", href: "a.xhtml#x", depth: 1),
            .init(title: "Two", href: "b.xhtml", depth: 0),
        ])

        let xml = sut.xml()

        #expect(xml.contains("<ol>\n<li><a href=\"a.xhtml\">One</a>\n<ol>\n<li><a href=\"a.xhtml#x\">One.1</a></li>\n</ol></li>\n<li><a href=\"b.xhtml\">Two</a></li>\n</ol>"))
        #expect(XHTMLDocument(bytes: Array(xml.utf8)) != nil)
    }
}
