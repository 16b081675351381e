import NarrateDomain
import Testing

@Suite struct CharacterFinderTests {
    @Test("a first name, a titled family name and the full name are one character, female by her title")
    func aliasesMerged() {
        // Given
        let text = """
            Emma Woodhouse was handsome and clever.

            "Good morning," said Emma.

            "Good morning, Miss Woodhouse," said Mr. Knightley.

            Emma Woodhouse smiled.
            """

        // When
        let characters = DialogueAnalyzer.analyze(text).characters

        // Then
        let emma = characters.first { $0.aliases.contains("Emma") }
        #expect(emma?.aliases == ["Emma", "Emma Woodhouse", "Miss Woodhouse"])
        #expect(emma?.gender == .female)
        #expect(characters.first { $0.name == "Mr. Knightley" }?.gender == .male)
    }

    @Test("a full name with the same title tells two people of one family apart")
    func sameFamily() {
        // Given
        let text = """
            "Yes," said Mr. Knightley. "No," said Mr. John Knightley. "Well," said Mr. Knightley.
            """

        // When
        let names = DialogueAnalyzer.analyze(text).characters.map(\.name).sorted()

        // Then
        #expect(names == ["Mr. John Knightley", "Mr. Knightley"])
    }

    @Test("a gender from the pronouns that follow a name with no title")
    func genderFromPronouns() {
        // Given
        let text = """
            "Come," said Tom. He ran off.

            Tom came back, and he sat down. "Now," said Tom, and he laughed.
            """

        // When
        let tom = DialogueAnalyzer.analyze(text).characters.first { $0.name == "Tom" }

        // Then
        #expect(tom?.gender == .male)
    }

    @Test("a bare family name goes to the titled name the text uses far more (Mr. Darcy, not Miss Darcy), even when it comes first")
    func bareNameToDominantTitle() {
        // Given
        let text = """
            "Darcy!" said Darcy. "No," said Darcy.

            Mr. Darcy bowed. Mr. Darcy smiled. Mr. Darcy left. Mr. Darcy returned.

            Miss Darcy sang.
            """

        // When
        let characters = DialogueAnalyzer.analyze(text).characters

        // Then
        let darcy = characters.first { $0.aliases.contains("Darcy") }
        #expect(darcy?.aliases == ["Darcy", "Mr. Darcy"])
        #expect(darcy?.gender == .male)
        #expect(characters.contains { $0.aliases == ["Miss Darcy"] })
    }
}
