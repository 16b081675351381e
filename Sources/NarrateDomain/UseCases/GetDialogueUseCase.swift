/// The dialogue of a text: its quotations, its characters and who speaks each quotation
/// (`narrate cast`).
public protocol GetDialogueUseCaseContract: Sendable {
    /// The dialogue of `text`; offsets count Unicode scalars of `text`.
    func execute(text: String) -> DialogueAnalysis
}

/// Finds the dialogue of a text with `DialogueAnalyzer`'s sieve of rules.
public struct GetDialogueUseCase: GetDialogueUseCaseContract {
    public init() {}

    public func execute(text: String) -> DialogueAnalysis {
        DialogueAnalyzer.analyze(text)
    }
}
