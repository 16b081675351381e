import ArgumentParser
import NarrateKit

/// The user's own pronunciations.
struct PronunciationOptions: ParsableArguments {
    @Option(name: .customLong("lexicon"), help: ArgumentHelp("A PLS pronunciation lexicon (IPA or X-SAMPA) to apply; repeat for more. Yours win over the voice preset's and the book's.", valueName: "file.pls"))
    var paths: [String] = []

    /// The lexicons, read and checked.
    func lexicons() throws(PronunciationError) -> [PronunciationLexicon] {
        try loadLexicons(paths: paths)
    }
}
