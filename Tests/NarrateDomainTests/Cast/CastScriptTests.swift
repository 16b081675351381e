import NarrateDomain
import Testing

@Suite struct CastScriptTests {
    let narrator = VoiceProfile(voice: "en-us")
    let emma = VoiceProfile(voice: "en-us+f4")
    let knightley = VoiceProfile(voice: "en-us+m3")
    let dialogue = VoiceProfile(voice: "en-gb")

    var cast: VoiceCast {
        VoiceCast(narrator: narrator, dialogue: dialogue, members: [
            CastMember(names: ["Emma", "Miss Woodhouse"], voice: emma),
            CastMember(names: ["Mr. Knightley"], voice: knightley),
        ])
    }

    private func script(_ text: String, _ cast: VoiceCast) -> [(String, VoiceProfile, Int)] {
        CastScript.chunks(of: text, cast: cast, analysis: DialogueAnalyzer.analyze(text)).map { ($0.chunk.text, $0.voice, $0.chunk.scalarOffset) }
    }

    @Test("a quotation split by its narration: two quoted parts in the speaker's voice, the narration between in the narrator's, without the marks")
    func splitQuotation() {
        // Given
        let text = "\u{201C}I cannot agree,\u{201D} said Emma, \u{201C}you know I cannot.\u{201D}"

        // When
        let chunks = script(text, cast)

        // Then
        #expect(chunks.map(\.0) == ["I cannot agree,", "said Emma,", "you know I cannot."])
        #expect(chunks.map(\.1) == [emma, narrator, emma])
        #expect(chunks.map(\.2) == [1, 18, 30])
    }

    @Test("a speaker the cast does not name, and an unattributed quotation, are read in the dialogue voice")
    func dialogueVoice() {
        // Given
        let text = "\"Who is there?\"\n\nThe door opened.\n\n\"Only me,\" said Harriet."

        // When
        let chunks = script(text, cast)

        // Then
        #expect(chunks.map(\.0) == ["Who is there?", "The door opened.", "Only me,", "said Harriet."])
        #expect(chunks.map(\.1) == [dialogue, narrator, dialogue, narrator])
    }

    @Test("a name inside the quotation is the one addressed, and a character is found by an alias")
    func vocativeAndAlias() {
        // Given
        let text = "\"You are wrong, Miss Woodhouse,\" replied Mr. Knightley. \"Quite wrong.\""

        // When
        let chunks = script(text, cast)

        // Then
        #expect(chunks.first?.1 == knightley)
        #expect(chunks.last?.0 == "Quite wrong.")
        #expect(chunks.last?.1 == knightley)
    }

    @Test("a text without dialogue, or read by a cast of one voice, is cut exactly as without a cast")
    func unchangedWithoutDialogue() {
        // Given
        let plain = "It was a bright cold day. The clocks were striking thirteen.\n\nWinston's chin was nuzzled in his breast."
        let talk = "\"I cannot agree,\" said Emma. \"You know I cannot.\" She sighed; it isn't easy."
        let alone = VoiceCast(narrator: narrator, dialogue: narrator, members: [CastMember(names: ["Emma"], voice: narrator)])

        // When
        let noDialogue = script(plain, cast)
        let oneVoice = script(talk, alone)

        // Then
        let expected = TextChunker.chunks(of: plain, maxScalars: 700)
        #expect(noDialogue.map(\.0) == expected.map(\.text))
        #expect(noDialogue.map(\.2) == expected.map(\.scalarOffset))
        #expect(noDialogue.allSatisfy { $0.1 == narrator })
        #expect(oneVoice.map(\.0) == [talk])
    }

    @Test("an apostrophe is not a quotation: the narration around it stays whole")
    func apostrophes() {
        // Given
        let text = "Emma's father didn't go out. \u{201C}It's cold,\u{201D} said Emma."

        // When
        let chunks = script(text, cast)

        // Then
        #expect(chunks.map(\.0) == ["Emma's father didn't go out.", "It's cold,", "said Emma."])
        #expect(chunks.map(\.1) == [narrator, emma, narrator])
    }

    @Test("a speech over two paragraphs (no closing mark on the first) stays in its speaker's voice")
    func speechOverParagraphs() {
        // Given
        let text = "Mr. Knightley said, \"I have thought it over.\n\n\"And I cannot agree.\"\n\nEmma laughed."

        // When
        let chunks = script(text, cast)

        // Then
        #expect(chunks.map(\.1) == [narrator, knightley, narrator])
        #expect(chunks[1].0.hasPrefix("I have thought it over."))
        #expect(chunks[1].0.hasSuffix("And I cannot agree."))
    }
}
