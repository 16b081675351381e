import CNarrateSystem
import NarrateDomain

extension EngineWorkerSynthesizer: PhonemeRepositoryContract {
    /// The worker's reading of the text (NARRATE_WORKER_PHONEMIZE): a Piper voice's sentences
    /// with the ids its model is given, or eSpeak NG's IPA clause by clause.
    public func phonemes(_ request: SpeechRequest) async throws(SpeechError) -> [PhonemizedSentence] {
        switch try await answer(request, entry: nil, kind: NARRATE_WORKER_PHONEMIZE) {
        case let .list(text):
            return text.split(separator: "\n").compactMap { line in
                let fields = line.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
                guard fields.count == 4, let offset = Int(fields[0]), let length = Int(fields[1]) else { return nil }
                return PhonemizedSentence(textOffset: offset, textLength: length, phonemes: fields[2], ids: fields[3].split(separator: " ").compactMap { Int($0) })
            }
        case .audio, .stored:
            throw .engineUnavailable(reason: "the eSpeak worker answered audio to a phonemization")
        case let .failure(error), let .crashed(error):
            throw describe(error, for: request)
        }
    }
}
