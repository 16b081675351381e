import Testing

@testable import NarrateDomain

@Suite("Terminal-safe text")
struct TerminalSafeTextTests {
    @Test("Control characters are written out; printable text, accents and emoji are kept")
    func controlCharactersAreEscaped() {
        let hostile = "application/epub+zip\u{1B}[2J\u{07}\nnext\tline\u{7F}\u{9B}31m é 🐋"

        let escaped = hostile.escapingControlCharacters

        #expect(escaped == #"application/epub+zip\u{1B}[2J\u{7}\nnext\tline\u{7F}\u{9B}31m é 🐋"#)
        #expect(!escaped.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    @Test("Ordinary text is unchanged")
    func ordinaryTextUnchanged() {
        #expect("Moby-Dick; or, The Whale — “Call me Ishmael.”".escapingControlCharacters == "Moby-Dick; or, The Whale — “Call me Ishmael.”")
    }
}
