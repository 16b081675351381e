import Testing

@testable import NarrateDomain

@Suite struct LanguageNameTests {
    @Test("Header language names and tags become BCP 47 tags", arguments: [
        ("Dutch", "nl"), ("English", "en"), ("French", "fr"), ("English; Latin", "en"), ("German, English", "de"),
        ("nl", "nl"), ("pt_BR", "pt-br"), ("EN-gb", "en-gb"), ("Middle English", "en"), ("Norwegian", "nb"),
        ("Chinese", "cmn"), ("  Finnish  ", "fi"), ("Français", "fr"),
    ])
    func tags(name: String, tag: String) {
        #expect(LanguageName.tag(for: name) == tag)
    }

    @Test("Names that are no language give nil", arguments: ["", "Unknown language", "Klingonese words"])
    func unknown(name: String) {
        #expect(LanguageName.tag(for: name) == nil)
    }
}

@Suite struct GutenbergHeaderTests {
    static let dutch = """
        The Project Gutenberg EBook of Ontboezemingen, by Multatuli\r
        \r
        Title: Ontboezemingen\r
        \r
        Author: Multatuli\r
        \r
        Release Date: January 1, 2008 [EBook #24675]\r
        \r
        Language: Dutch\r
        \r
        *** START OF THIS PROJECT GUTENBERG EBOOK ONTBOEZEMINGEN ***\r
        \r
        \r
        Produced by Jeroen Hellingman and the Online Distributed\r
        Proofreading Team at http://www.pgdp.net/\r
        \r
        \r
        Ik heb het boek gelezen.\r
        """

    @Test("Every header field is read: title, author, language, release date (without the EBook number) and the credit paragraph")
    func oldLayout() {
        // When
        let header = GutenbergStripper.header(in: Self.dutch)

        // Then
        #expect(header == GutenbergStripper.Header(
            title: "Ontboezemingen", author: "Multatuli", language: "Dutch", releaseDate: "January 1, 2008",
            credits: "Produced by Jeroen Hellingman and the Online Distributed Proofreading Team at http://www.pgdp.net/"
        ))
    }

    @Test("The 2020s layout: 'Release date', 'Credits' with continuation lines")
    func modernLayout() {
        // Given
        let text = """
            Title: Entre Nous
            Author: Lucie Vos
            Release date: January 1, 2014 [eBook #44157]
                            Most recently updated: June 1, 2021
            Language: French
            Credits: Produced by Clarity, Hélène de Mink and the Online
                     Distributed Proofreading Team
            *** START OF THE PROJECT GUTENBERG EBOOK ENTRE NOUS ***
            Text.
            """

        // When
        let header = GutenbergStripper.header(in: text)

        // Then
        #expect(header.language == "French")
        #expect(header.releaseDate == "January 1, 2014")
        #expect(header.credits == "Produced by Clarity, Hélène de Mink and the Online Distributed Proofreading Team")
    }

    @Test("A text without a start marker has no header")
    func noHeader() {
        #expect(GutenbergStripper.header(in: "Title: Not a header\nLanguage: Dutch\nJust text.") == GutenbergStripper.Header())
    }
}

@Suite struct TextContentsListTests {
    @Test("A heading and numbered, paged entry lines ended by two blank lines are a contents list")
    func findsList() throws {
        // Given
        let text = "PREFACE\n\nSome words here.\n\nCONTENTS.\n\n   Chap.      Page.\n\n  I. The Start   7\n II. The Middle  9\nIII. The End    12\n\n\n\nI.\n\nThe Start\n\nIt began."

        // When
        let found = try #require(TextContentsList.find(in: text))

        // Then
        #expect(found.title == "CONTENTS.")
        #expect(!found.remainder.contains("The Middle"))
        #expect(found.remainder.contains("PREFACE\n\nSome words here."))
        #expect(found.remainder.contains("I.\n\nThe Start\n\nIt began."))
    }

    @Test("A heading followed by prose is not a contents list")
    func prose() {
        // Given a chapter titled "Contents" with long lines
        let text = "Contents\n\nThe contents of the box were strange, and nobody could say what they had been for, or who had put them there.\nIt was a long time ago.\nNobody knew.\n\n\nMore."

        // When / Then
        #expect(TextContentsList.find(in: text) == nil)
    }
}
