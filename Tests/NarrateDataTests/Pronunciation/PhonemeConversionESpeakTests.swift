import Foundation
import NarrateDomain
import Testing

/// The conversions checked against eSpeak NG itself, by ear-free means: eSpeak's own IPA of a
/// word, converted, must give back the phonemes eSpeak reports for the word (`espeak-ng -x`).
@Suite struct PhonemeConversionESpeakTests {
    /// The mnemonics `espeak-ng -x` reports for `input` (phoneme input on, as the program has it).
    /// eSpeak's word-initial pause before a vowel (`_|` in German) is left out: it is added to
    /// words, never to phoneme input, and is not a phoneme of the word.
    private func mnemonics(_ input: String, voice: String) throws -> String {
        try espeak(["-q", "-x", "-v", voice, input]).replacingOccurrences(of: "_|", with: "")
    }

    private func ipa(_ word: String, voice: String) throws -> String {
        try espeak(["-q", "--ipa", "-v", voice, word])
    }

    private func espeak(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static let cases: [(voice: String, words: String)] = [
        ("en-us", "hello thought father cat bit beat boot put cup bird judge church thing ship measure yes wet red square cure price choice mouth face goat strut trap palm start"),
        ("en-gb", "hello thought cat bit beat boot put cup bird judge church thing ship lot cloth price choice mouth face goat tomato"),
        ("de", "schön über ich Küche Bach Zeit Wasser Mann"),
        ("fr", "un bon vin blanc peu lune rue agneau"),
        ("es", "pero ñandú llave cabo hago"),
        ("it", "gli gnocchi"),
    ]

    @Test("eSpeak's own IPA of a word, converted, gives the phonemes eSpeak reports for the word", arguments: cases.indices)
    func roundTrip(index: Int) throws {
        let (voice, words) = Self.cases[index]
        for word in words.split(separator: " ").map(String.init) {
            // Given
            let expected = try mnemonics(word, voice: voice)
            let transcription = try ipa(word, voice: voice)

            // When
            let converted = try PhonemeConverter.espeak(transcription, alphabet: "ipa", language: voice).get()

            // Then
            #expect(try mnemonics("[[\(converted)]]", voice: voice) == expected, "\(voice) \(word): /\(transcription)/ → \(converted)")
        }
    }

    @Test("dictionary IPA and X-SAMPA of English words give eSpeak's phonemes for the words", arguments: [
        ("tomato", "təˈmeɪtoʊ", "t@\"meIt@U"),
        ("quinoa", "ˈkiːnwɑː", "\"ki:nwA:"),
        ("nginx", "ˈɛndʒɪnˈɛks", "\"EndZIn\"Eks"),
        ("thought", "θɔːt", "TO:t"),
        ("church", "tʃɜːtʃ", "tS3:tS"),
    ])
    func dictionaryForms(word: String, ipa: String, xsampa: String) throws {
        // When
        let fromIPA = try PhonemeConverter.espeak(ipa, alphabet: "ipa", language: "en-GB").get()
        let fromXSAMPA = try PhonemeConverter.espeak(xsampa, alphabet: "x-sampa", language: "en-GB").get()

        // Then: both say the same, and what eSpeak reads is what was converted
        #expect(try mnemonics("[[\(fromIPA)]]", voice: "en-gb") == mnemonics("[[\(fromXSAMPA)]]", voice: "en-gb"))
        #expect(!(try mnemonics("[[\(fromIPA)]]", voice: "en-gb")).isEmpty)
    }
}
