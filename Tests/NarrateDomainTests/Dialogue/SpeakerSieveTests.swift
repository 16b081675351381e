import NarrateDomain
import Testing

@Suite struct SpeakerSieveTests {
    /// Each quoted part's speaker and rule.
    private func speakers(_ text: String) -> [String] {
        let analysis = DialogueAnalyzer.analyze(text)
        return analysis.parts.map { "\(analysis.speakerName(of: $0) ?? "nil") \($0.rule.rawValue)" }
    }

    @Test("a name after or before a speech verb, with a title, the title's period no sentence end")
    func nameBySpeechVerb() {
        // Given
        let text = """
            "Mr. Weston is here," said Emma.

            "I know it," Mr. Knightley replied.
            """

        // When
        let result = speakers(text)

        // Then
        #expect(result == ["Emma name-speech-verb", "Mr. Knightley name-speech-verb"])
    }

    @Test("the first paragraph of a quotation over two is the speaker's named in the second")
    func sameTurn() {
        // When
        let result = speakers("\"It was late when we came home.\n\n\"Then the rain began,\" said Emma.")

        // Then
        #expect(result == ["Emma same-turn", "Emma name-speech-verb"])
    }

    @Test("a speech verb closing the paragraph before names the speaker of the next")
    func verbInParagraphBefore() {
        // When
        let result = speakers("No sooner was she gone than Emma exclaimed,\n\n\"What a picture it would make!\"")

        // Then
        #expect(result == ["Emma name-speech-verb"])
    }

    @Test("a pronoun speaker is the last character named whose gender fits")
    func pronoun() {
        // Given
        let text = """
            "Good day," said Mrs. Weston. Mr. Elton bowed to Mrs. Weston and to Mr. Weston.

            "It is late," cried she.
            """

        // When
        let result = speakers(text)

        // Then
        #expect(result.last == "Mrs. Weston pronoun-speech-verb")
    }

    @Test("two people take turns; the one addressed in a quotation is not its speaker")
    func turnTakingAndVocative() {
        // Given
        let text = """
            "Shall we walk?" said Emma.

            "Gladly," said Harriet.

            "Then come along."

            "I am ready."

            "You are slow, Harriet."
            """

        // When
        let result = speakers(text)

        // Then
        #expect(result == [
            "Emma name-speech-verb", "Harriet name-speech-verb", "Emma turn-taking", "Harriet turn-taking",
            "Emma turn-taking",
        ])
    }

    @Test("a vocative stops turn-taking from giving the quotation to the one addressed")
    func vocativeRuledOut() {
        // Given
        let text = """
            "Shall we walk?" said Emma.

            "Gladly," said Harriet.

            "Come, Emma, we are late."
            """

        // When
        let result = speakers(text)

        // Then
        #expect(result.last == "nil unattributed")
    }

    @Test("a paragraph whose narration names one character only gives that character")
    func narrationNamesOne() {
        // When
        let result = speakers("\"Hello,\" said Tom.\n\n\"Hi,\" said Harriet.\n\nHarriet looked up from her book. \"Is it you?\"")

        // Then
        #expect(result.last == "Harriet narration-names-one")
    }

    @Test("no rule fires: the quotation stays unattributed")
    func unattributed() {
        // When
        let result = speakers("It was a cold morning.\n\n\"Is anyone there?\"")

        // Then
        #expect(result == ["nil unattributed"])
    }

    @Test("first-person narration gives the narrator")
    func firstPerson() {
        // When
        let analysis = DialogueAnalyzer.analyze("\"Wait for me,\" I said.")

        // Then
        #expect(analysis.parts.map(\.rule) == [.firstPerson])
        #expect(analysis.speakerName(of: analysis.parts[0]) == "narrator")
    }
}
