import Foundation
import NarrateDomain
import Testing

@Suite struct CastFileTests {
    @Test("a cast file names a narrator, a dialogue voice and characters; any may be left out")
    func decodes() throws {
        // Given
        let json = #"{"narrator": "en-us", "characters": [{"name": "Emma", "voice": "en-us+f4", "aliases": ["Miss Woodhouse"], "lines": 3}]}"#

        // When
        let file = try JSONDecoder().decode(CastFile.self, from: Data(json.utf8))
        let empty = try JSONDecoder().decode(CastFile.self, from: Data("{}".utf8))

        // Then
        #expect(file.narrator == "en-us")
        #expect(file.dialogue == nil)
        #expect(file.characters == [CastFileCharacter(name: "Emma", voice: "en-us+f4", aliases: ["Miss Woodhouse"], lines: 3)])
        #expect(file.problem == nil)
        #expect(empty.characters.isEmpty)
    }

    @Test("a character named twice, an empty voice or an endless name is a problem, said in one line")
    func problems() {
        #expect(CastFile(characters: [.init(name: "Emma", voice: "a"), .init(name: "emma", voice: "b")]).problem?.contains("named twice") == true)
        #expect(CastFile(narrator: "").problem?.contains("empty") == true)
        #expect(CastFile(characters: [.init(name: String(repeating: "x", count: 500), voice: "a")]).problem?.contains("longer than") == true)
        #expect(CastFile(characters: Array(repeating: .init(name: "x", voice: "a"), count: CastFile.maxCharacters + 1)).problem?.contains("more than") == true)
    }

    @Test("a cast finds a character's voice by its name or any alias, case aside; the narrator of a first-person book is the narrator's")
    func memberByAlias() {
        // Given
        let cast = VoiceCast(narrator: VoiceProfile(voice: "en-us"), dialogue: VoiceProfile(voice: "en-gb"), members: [CastMember(names: ["Emma", "miss woodhouse"], voice: VoiceProfile(voice: "en-us+f4"))])

        // Then
        #expect(cast.voice(for: StoryCharacter(name: "Miss Woodhouse", aliases: ["Miss Woodhouse"], gender: .female))?.voice == "en-us+f4")
        #expect(cast.voice(for: .narrator)?.voice == "en-us")
        #expect(cast.voice(for: StoryCharacter(name: "Harriet", aliases: ["Harriet"], gender: .female)) == nil)
    }
}
