import ArgumentParser
import Foundation
import Logging
import NarrateKit

extension Narrate {
    /// `narrate voices install NAME|URL`: fetch a Piper voice into a voice folder.
    struct VoicesInstall: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "install",
            abstract: "Download a Piper voice (its .onnx model and .onnx.json) into a voice folder.",
            discussion: """
                A NAME (en_US-lessac-medium) is looked up in the Piper voices repository, whose \
                voices.json gives each file's size and MD5 checksum; a URL names the .onnx model \
                itself, its configuration being <URL>.json. An interrupted download resumes on \
                the next run; a voice is listed only once both files are whole and checked.
                """
        )

        @Argument(help: "A Piper voice name (en_US-lessac-medium) or the http(s) URL of an .onnx model.")
        var source: String

        @Option(name: .customLong("from"), help: "The Piper voices repository (default: $NARRATE_PIPER_VOICES_URL, else huggingface.co/rhasspy/piper-voices, v1.0.0).")
        var repositoryURL: String?

        @Option(name: .customLong("to"), help: "The voice folder to install into (default: $NARRATE_VOICES_DIR, else $XDG_DATA_HOME/narrate/voices).")
        var directory: String?

        @Option(name: .customLong("max-size"), help: "The largest model accepted (500MB, 2GiB; default 1GiB).")
        var maxSize: ByteSize?

        @Flag(name: [.short, .long], help: "Show no progress.")
        var quiet = false

        func validate() throws {
            if let repositoryURL, !["http://", "https://"].contains(where: repositoryURL.lowercased().hasPrefix) {
                throw ValidationError("--from must be an http(s) URL (got '\(repositoryURL)').")
            }
            if let maxSize, maxSize.bytes < 1 { throw ValidationError("--max-size must be at least 1 byte.") }
        }

        func run() async throws {
            let environment = ProcessInfo.processInfo.environment
            let folder = directory ?? NarrateEnvironment.defaultVoiceInstallDirectory(environment: environment)
            let request = VoiceInstallRequest(
                source: source,
                repositoryURL: repositoryURL ?? NarrateEnvironment.defaultPiperVoicesURL(environment: environment),
                directory: URL(fileURLWithPath: folder).standardizedFileURL.path,
                maxModelBytes: maxSize?.bytes ?? VoiceInstallRequest.defaultMaxModelBytes
            )
            let logger = Logger(label: "narrate", factory: { StreamLogHandler.standardError(label: $0) })
            let install = NarrateEnvironment(logger: logger).installVoice()
            let display = DownloadProgressDisplay(quiet: quiet)
            let installation: VoiceInstallation
            do {
                installation = try await install.execute(request) { display.update($0) }
            } catch let .tooLarge(url, bytes, limit) {
                display.finish()
                let size = bytes.map { " (\(Format.bytes($0)))" } ?? ""
                throw CLIMessage("\(url)\(size) is larger than --max-size \(Format.bytes(limit)); nothing was installed. Raise --max-size if the file is what you want.")
            } catch {
                display.finish()
                throw error
            }
            print(Self.summary(installation))
        }

        /// What the command prints at the end.
        static func summary(_ installation: VoiceInstallation) -> String {
            let voice = installation.voice
            let speakers = voice.speakers == 1 ? "1 speaker" : "\(voice.speakers) speakers"
            let facts = "\(voice.quality ?? "unknown quality"), \(speakers), \(voice.sampleRate) Hz"
            let verb = installation.wasAlreadyInstalled ? "Already installed (same files)" : "Installed"
            let checked = installation.checksumsVerified ? "MD5 verified" : "no checksum listed"
            return """
                \(verb): \(installation.name) (\(facts)) in \(installation.directory): narrate say --voice \(installation.name) "Hello"
                Model SHA-256: \(installation.modelSHA256) (\(checked))
                """
        }
    }
}
