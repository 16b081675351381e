import Testing

@testable import NarrateDomain

/// The one rule for what a remote client may give as a voice: names the catalog could hold,
/// never anything that reads as a file.
@Suite struct VoiceNameRuleTests {
    static let refused: [String] = [
        "/some/dir/joe.onnx", "../../../../some/dir/joe.onnx", "voices/joe", "joe.onnx", "JOE.ONNX", "/dev/zero", "C:\\voices\\joe",
        "joe.onnx.json", "voices.npz", "af_heart.bin", "joe\u{0}", "\u{1B}[31mred", "line\nbreak", ".", "..",
        String(repeating: "a", count: 10_240), "gmw/en-US",
    ]

    static let admitted: [String] = [
        "", "narrator", "en_US-joe-medium", "en-us", "en+f3", "alloy", "English_(America)", "af_heart:0.6+bf_emma:0.4", "af_heart(3)+bf_emma(2)",
        "Cherokee ", "voix française", String(repeating: "a", count: 256),
    ]

    @Test("A path, a file name with a model suffix, a control character, . or .., or a name over 256 bytes is refused", arguments: refused)
    func refusesFileLikeNames(name: String) {
        #expect(!VoiceNameRule.admits(name))
    }

    @Test("Catalog names, eSpeak names with variants and blends are admitted", arguments: admitted)
    func admitsCatalogNames(name: String) {
        #expect(VoiceNameRule.admits(name))
    }

    @Test("What a message shows of a refused name is its last component, escaped and at most 64 characters: never a folder")
    func shownNameHidesFolders() {
        // When / Then
        #expect(VoiceNameRule.shown("/some/dir/joe.onnx") == "joe.onnx")
        #expect(VoiceNameRule.shown("../../x/joe.onnx") == "joe.onnx")
        #expect(VoiceNameRule.shown("/dev/zero") == "zero")
        #expect(VoiceNameRule.shown("joe\u{0}x") == "joe\\u{0}x")
        #expect(VoiceNameRule.shown("/") == "")
        let long = VoiceNameRule.shown(String(repeating: "a", count: 10_240))
        #expect(long == String(repeating: "a", count: 64) + "\u{2026}")
    }

    @Test("The stem of a model's path is the catalog name it may have meant; a name with control characters has none")
    func stems() {
        #expect(VoiceNameRule.stem("/some/dir/en_US-joe-medium.onnx") == "en_US-joe-medium")
        #expect(VoiceNameRule.stem("en_US-joe-medium.onnx.json") == "en_US-joe-medium")
        #expect(VoiceNameRule.stem("/dev/zero") == "zero")
        #expect(VoiceNameRule.stem("joe\u{0}.onnx") == nil)
        #expect(VoiceNameRule.stem("/x/.onnx") == nil)
        #expect(VoiceNameRule.stem(String(repeating: "a", count: 10_240)) == nil)
    }
}
