import ArgumentParser

extension Narrate {
    /// `narrate voices`: list the voices (the default), or install a Piper voice.
    struct Voices: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the voices (presets, installed Piper voices, eSpeak's voices), or install a Piper voice.",
            subcommands: [VoicesList.self, VoicesInstall.self],
            defaultSubcommand: VoicesList.self
        )
    }
}
