import Foundation
import Testing

/// `--cast`: a corpus chapter read by a cast of two eSpeak voices and a narrator, each
/// utterance equal to what `espeak-ng -w` writes for it in its voice.
@Suite("narrate --cast, end to end")
struct CastNarrationEndToEndTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// Chapter 2 of Pride and Prejudice from the corpus (Windows-1252: Mr. and Mrs. Bennet and
    /// their daughters), its paragraphs unwrapped (each on one line), its illustration captions
    /// left out: text the normalizer leaves as it is.
    private func chapterTwo() throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: try NarrateProcess.corpusFile("txt/pg1342-pride-and-prejudice-cp1252.txt")))
        let book = try #require(String(data: data, encoding: .windowsCP1252)).replacingOccurrences(of: "\r\n", with: "\n")
        let start = try #require(book.range(of: "CHAPTER II.\n"))
        let end = try #require(book.range(of: "CHAPTER III.", range: start.upperBound..<book.endIndex))
        let paragraphs = book[start.upperBound..<end.lowerBound].components(separatedBy: "\n\n")
            .map { $0.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") }
            .filter { !$0.isEmpty && !$0.contains("[") && !$0.contains("]") }
        return paragraphs.joined(separator: "\n\n") + "\n"
    }

    private func json(_ arguments: [String]) async throws -> [[String: Any]] {
        let result = try await NarrateProcess.narrate(arguments, in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
    }

    /// The utterances a cast reads `text` in, built from `narrate cast --quotes --json` by the
    /// rule docs/cast.md states: narration between quotations in the narrator's voice, each
    /// quoted part in its speaker's (unattributed: the dialogue voice), runs of one voice
    /// joined (over narration without a word), each cut from its first letter to its last word, without quotation marks.
    private func utterances(_ text: String, quotes: [[String: Any]], voices: [String: String], narrator: String, dialogue: String) -> [(text: String, voice: String)] {
        let scalars = Array(text.unicodeScalars)
        var spans: [(start: Int, end: Int, voice: String)] = []
        func isWord(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isAlphabetic || scalar.properties.numericType != nil }
        func add(_ start: Int, _ end: Int, _ voice: String, narration: Bool = false) {
            guard start < end, !narration || scalars[start..<end].contains(where: isWord) else { return }
            if let last = spans.last, last.voice == voice { spans[spans.count - 1].end = end } else { spans.append((start, end, voice)) }
        }
        var position = 0
        for quote in quotes {
            let start = quote["start"] as! Int, end = quote["end"] as! Int
            add(position, start, narrator, narration: true)
            add(start, end, (quote["speaker"] as? String).flatMap { voices[$0] } ?? dialogue)
            position = end
        }
        add(position, scalars.count, narrator, narration: true)
        let silent = Set("\u{201C}\u{201D}\u{2018}\u{2019}\"'-\u{2014}\u{2013} \n".unicodeScalars)
        return spans.compactMap { span in
            guard let first = (span.start..<span.end).first(where: { isWord(scalars[$0]) }) else { return nil }
            var last = span.end
            while last > first, silent.contains(scalars[last - 1]) { last -= 1 }
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[first..<last])
            return (String(view), span.voice)
        }
    }

    @Test("A chapter read by a cast: each quotation equals espeak-ng -w in its character's voice, the narration in the narrator's")
    func chapterByCast() async throws {
        // Given: the chapter, and a cast giving its two main speakers eSpeak voices of their own, and
        // unattributed quotations one more
        try Data(try chapterTwo().utf8).write(to: folder.url.appendingPathComponent("chapter.txt"))
        let text = try String(contentsOf: folder.url.appendingPathComponent("chapter.txt"), encoding: .utf8)
        let characters = try await json(["cast", "chapter.txt", "--json"])
        let speakers = characters.filter { ($0["lines"] as? Int ?? 0) > 0 }.compactMap { $0["name"] as? String }
        try #require(speakers.count >= 2, "the chapter's speakers: \(speakers)")
        let voices = [speakers[0]: "en-us+f4", speakers[1]: "en-us+m3"]
        let cast: [String: Any] = [
            "narrator": "en-us", "dialogue": "en-gb",
            "characters": voices.map { ["name": $0.key, "voice": $0.value] },
        ]
        try JSONSerialization.data(withJSONObject: cast).write(to: folder.url.appendingPathComponent("cast.json"))
        let quotes = try await json(["cast", "chapter.txt", "--quotes", "--json"])

        // When
        let result = try await NarrateProcess.narrate(["say", "-f", "chapter.txt", "--cast", "cast.json", "-o", "ours.wav", "--no-cache"], in: folder.url)

        // Then: the same samples as espeak-ng -w gives each utterance in its voice, in order
        #expect(result.status == 0, "\(result.stderr)")
        let parts = utterances(text, quotes: quotes, voices: voices, narrator: "en-us", dialogue: "en-gb")
        #expect(Set(parts.map(\.voice)) == ["en-us", "en-gb", "en-us+f4", "en-us+m3"])
        try #require(parts.allSatisfy { $0.text.unicodeScalars.count < 700 }, "each utterance is one chunk")
        let ours = try WAVFile(path: folder.path("ours.wav"))
        var offset = 0
        for (index, part) in parts.enumerated() {
            try Data(part.text.utf8).write(to: folder.url.appendingPathComponent("part\(index).txt"))
            try await NarrateProcess.run(
                "/usr/bin/espeak-ng", ["-v", part.voice, "-w", folder.path("part\(index).wav"), "-f", folder.path("part\(index).txt")], in: folder.url)
            let reference = try WAVFile(path: folder.path("part\(index).wav")).data
            let end = min(ours.data.count, offset + reference.count)
            try #require(identical(ours.data.subdata(in: offset..<end), reference), "utterance \(index) in \(part.voice): \(part.text)")
            offset += reference.count
        }
        #expect(offset == ours.data.count)
    }

    @Test("Without --cast, or with a cast of the narrator alone, the chapter's audio is today's")
    func noCastIsUnchanged() async throws {
        // Given
        try Data(try chapterTwo().utf8).write(to: folder.url.appendingPathComponent("chapter.txt"))
        try Data(#"{"narrator": "en-us", "characters": []}"#.utf8).write(to: folder.url.appendingPathComponent("alone.json"))

        // When
        let plain = try await NarrateProcess.narrate(["say", "-f", "chapter.txt", "-o", "plain.wav", "--no-cache"], in: folder.url)
        let alone = try await NarrateProcess.narrate(["say", "-f", "chapter.txt", "--cast", "alone.json", "-o", "alone.wav", "--no-cache"], in: folder.url)

        // Then
        #expect(plain.status == 0 && alone.status == 0, "\(plain.stderr)\(alone.stderr)")
        try expectSameSamples("alone.wav", "plain.wav", in: folder)
    }

    @Test("A cast file that is not one, or names a voice nobody has, is one line and no output", arguments: [
        (#"{"characters": [{"name": "Emma"}]}"#, "has no \"voice\""),
        ("not json", "not JSON"),
        (#"{"characters": [{"name": "Emma", "voice": "no-such-voice"}]}"#, "no-such-voice"),
    ])
    func badCastFile(contents: String, message: String) async throws {
        // Given
        try Data(#""Hello," said Emma."#.utf8).write(to: folder.url.appendingPathComponent("t.txt"))
        try Data(contents.utf8).write(to: folder.url.appendingPathComponent("bad.json"))

        // When
        let result = try await NarrateProcess.narrate(["say", "-f", "t.txt", "--cast", "bad.json", "-o", "out.wav", "--no-cache"], in: folder.url)

        // Then
        #expect(result.status != 0)
        let stderr = result.stderr
        #expect(stderr.contains(message), "\(stderr)")
        #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out.wav")))
    }
}
