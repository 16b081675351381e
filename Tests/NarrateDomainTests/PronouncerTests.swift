import NarrateDomain
import Testing

@Suite struct PronouncerTests {
    static func lexicon(_ entries: [PronunciationEntry], name: String = "fixes.pls", language: String? = "en-US", digest: String = "d1") -> PronunciationLexicon {
        PronunciationLexicon(name: name, language: language, digest: digest, entries: entries)
    }

    static let nginx = PronunciationEntry(graphemes: ["nginx"], phonemes: "ˈɛndʒɪnˈɛks", alphabet: "ipa")

    @Test("a written form is replaced by its eSpeak phoneme span, whole words only and with its case as written")
    func wholeWordAndCase() {
        // Given
        let sut = Pronouncer(lexicons: [Self.lexicon([Self.nginx])], voice: "en-us")

        // When
        let result = sut.apply("nginx, NGINX, nginxes and nginx.")

        // Then
        #expect(result.text == "[['EndZIn'Eks]], NGINX, nginxes and [['EndZIn'Eks]].")
        #expect(result.pronouncedCount == 2)
    }

    @Test("a lexeme with several written forms covers each of them; a longer form wins over a shorter one")
    func severalForms() {
        // Given
        let sut = Pronouncer(lexicons: [Self.lexicon([
            PronunciationEntry(graphemes: ["GIF", "gif"], phonemes: "dZIf", alphabet: "x-sampa"),
            PronunciationEntry(graphemes: ["New"], phonemes: "nju:", alphabet: "x-sampa"),
            PronunciationEntry(graphemes: ["New York"], phonemes: "nu: \"jO:k", alphabet: "x-sampa"),
        ])], voice: "en-gb")

        // When
        let result = sut.apply("A GIF, a gif, New York, New.")

        // Then
        #expect(result.text == "A [[dZIf]], a [[dZIf]], [[nu: 'jO:k]], [[nju:]].")
    }

    @Test("the first lexicon with a written form wins, and only lexicons for the voice's language apply")
    func orderAndLanguage() {
        // Given
        let user = Self.lexicon([PronunciationEntry(graphemes: ["nginx"], phonemes: "ɛnˈdʒɪnks", alphabet: "ipa")], name: "mine.pls", digest: "u")
        let book = Self.lexicon([Self.nginx], name: "book.pls", digest: "b")
        let french = Self.lexicon([PronunciationEntry(graphemes: ["bonjour"], phonemes: "bɔ̃ʒuʁ", alphabet: "ipa")], name: "fr.pls", language: "fr", digest: "f")

        // When
        let english = Pronouncer(lexicons: [user, book, french], voice: "en-us")
        let inFrench = Pronouncer(lexicons: [user, book, french], voice: "fr")

        // Then
        #expect(english.apply("nginx bonjour").text == "[[En'dZInks]] bonjour")
        #expect(english.digest == "u,b")
        #expect(inFrench.apply("nginx bonjour").text == "nginx [[bO~Zur]]")
        #expect(inFrench.digest == "f")
    }

    @Test("a symbol with no eSpeak equivalent gives a warning naming the lexicon and the word, which is read as written")
    func unconvertible() {
        // Given
        let sut = Pronouncer(lexicons: [Self.lexicon([
            PronunciationEntry(graphemes: ["Zzyzx"], phonemes: "ˈzaɪʘzɪks", alphabet: "ipa"),
            PronunciationEntry(graphemes: ["SAPI"], phonemes: "s a p i", alphabet: "x-microsoft-sapi"),
        ])], voice: "en-us")

        // When
        let result = sut.apply("Zzyzx and SAPI")

        // Then
        #expect(result.text == "Zzyzx and SAPI")
        #expect(sut.warnings.map(\.grapheme) == ["Zzyzx", "SAPI"])
        #expect(sut.warnings[0].description.contains("fixes.pls"))
        #expect(sut.warnings[0].description.contains("ʘ"))
        #expect(sut.warnings[1].reason.contains("alphabet"))
    }

    @Test("with lexicons in force, a [[ of the text is broken up so eSpeak never reads it as phonemes")
    func literalBrackets() {
        // Given
        let sut = Pronouncer(lexicons: [Self.lexicon([Self.nginx])], voice: "en-us")

        // When
        let result = sut.apply("See [[h@l'oU]] and [[[x.")

        // Then
        #expect(result.text == "See [ [h@l'oU]] and [ [ [x.")
    }

    @Test("without lexicons for the voice, text is left as it is and no phoneme input is used")
    func noLexicons() {
        // Given
        let sut = Pronouncer(lexicons: [Self.lexicon([Self.nginx], language: "de")], voice: "en-us")

        // When
        let result = sut.apply("See [[h@l'oU]] nginx.")

        // Then
        #expect(result.text == "See [[h@l'oU]] nginx.")
        #expect(!sut.usesPhonemes)
        #expect(sut.digest == nil)
    }

    @Test("word marks on the pronounced text map back onto the words of the original text")
    func wordMarksMapBack() {
        // Given: "I run nginx now." → "I run [['EndZIn'Eks]] now."
        let sut = Pronouncer(lexicons: [Self.lexicon([Self.nginx])], voice: "en-us")
        let result = sut.apply("I run nginx now.")
        let spanStart = 6
        let spanLength = "[['EndZIn'Eks]]".unicodeScalars.count
        let nowStart = spanStart + spanLength + 1

        // When
        let marks = [
            WordMark(textOffset: 2, textLength: 3, sampleOffset: 10),
            WordMark(textOffset: spanStart + 2, textLength: spanLength - 4, sampleOffset: 20),
            WordMark(textOffset: nowStart, textLength: 3, sampleOffset: 30),
        ].map(result.originalMark)

        // Then
        #expect(marks == [
            WordMark(textOffset: 2, textLength: 3, sampleOffset: 10),
            WordMark(textOffset: 6, textLength: 5, sampleOffset: 20),
            WordMark(textOffset: 12, textLength: 3, sampleOffset: 30),
        ])
    }

    @Test("the cache key's lexicon part names the conversion version and the digests in force for the voice")
    func requestDigest() {
        // Given
        var voice = VoiceProfile(voice: "en-gb")
        voice.lexicons = [Self.lexicon([], digest: "aa"), Self.lexicon([], language: "fr", digest: "bb"), Self.lexicon([], language: nil, digest: "cc")]

        // When
        let digest = SpeechRequest(text: "x", voice: voice).lexiconDigest

        // Then
        #expect(digest == "conversion-\(PhonemeConverter.version):aa,cc")
        #expect(SpeechRequest(text: "x", voice: .narrator).lexiconDigest == "none")
    }
}
