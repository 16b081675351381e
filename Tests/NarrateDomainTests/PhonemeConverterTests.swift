import NarrateDomain
import Testing

@Suite struct PhonemeConverterTests {
    @Test("IPA converts to eSpeak's English mnemonics", arguments: [
        ("həˈləʊ", "h@'loU"), ("θɔːt", "TO:t"), ("ˈtʃɜːtʃ", "'tS3:tS"), ("skwɛɹ", "skwe@"), ("ˈvɛɹi", "'vEri"),
        ("/ˈbɒtl̩/", "'b0t@L"), ("t͡ʃɪp", "tSIp"), ("ˈfɑːðɚ", "'fA:D3"), ("ˈbʌʔn̩", "'bV?n-"),
    ])
    func english(ipa: String, expected: String) {
        #expect(PhonemeConverter.espeak(ipa, alphabet: "ipa", language: "en-US") == .success(expected))
    }

    @Test("X-SAMPA converts through IPA", arguments: [
        ("h@\"l@U", "h@'loU"), ("\"ki:nwA:", "'ki:nwA:"), ("r\\Ed", "rEd"), ("{p@l", "ap@L"),
    ])
    func xsampa(text: String, expected: String) {
        #expect(PhonemeConverter.espeak(text, alphabet: "x-sampa", language: "en") == .success(expected))
    }

    @Test("other languages use eSpeak's base names", arguments: [
        ("ʃøːn", "de", "SY:n"), ("bɔ̃ʒuʁ", "fr", "bO~Zur"), ("ɲandu", "es", "n^andu"), ("ˈʎaβe", "es", "'l^aBe"),
    ])
    func european(ipa: String, language: String, expected: String) {
        #expect(PhonemeConverter.espeak(ipa, alphabet: "ipa", language: language) == .success(expected))
    }

    @Test("an unknown symbol or alphabet fails naming it")
    func unknown() {
        #expect(PhonemeConverter.espeak("kʘa", alphabet: "ipa", language: "en") == .failure(.init(symbol: "ʘ")))
        #expect(PhonemeConverter.espeak("k_<a", alphabet: "x-sampa", language: "en") == .failure(.init(symbol: "_")))
        #expect(PhonemeConverter.espeak("ka", alphabet: "pinyin", language: "en") == .failure(.init(symbol: "alphabet pinyin")))
    }
}
