import ArgumentParser
import Foundation
import Logging
import NarrateKit

extension Narrate {
    /// `narrate voices install NAME|URL`: fetch a Piper voice into a voice folder;
    /// `narrate voices install kokoro [VOICE…] --from DIR`: install Kokoro voices from a folder.
    struct VoicesInstall: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "install",
            abstract: "Download a Piper voice (its .onnx model and .onnx.json) into a voice folder, or install Kokoro voices from a folder.",
            discussion: """
                A NAME (en_US-lessac-medium) is looked up in the Piper voices repository, whose \
                voices.json gives each file's size and MD5 checksum; a URL names the .onnx model \
                itself, its configuration being <URL>.json. An interrupted download resumes on \
                the next run; a voice is listed only once both files are whole and checked.

                `kokoro [VOICE…]` installs the Kokoro-82M model and style packs, all the voices or \
                the VOICEs named, into the voice folder's kokoro/: from kokoro-onnx's release \
                (default: $NARRATE_KOKORO_URL, else github.com/thewh1teagle/kokoro-onnx, \
                model-files-v1.0) or onnx-community's layout (onnx/model.onnx, voices/NAME.bin) \
                with --from URL, resumable and size-limited; or from a local folder with --from DIR \
                holding a model (*.onnx) and packs (an .npz of voices, or a raw <voice>.bin each).
                """
        )

        @Argument(help: "A Piper voice name (en_US-lessac-medium), the http(s) URL of an .onnx model, or `kokoro`.")
        var source: String

        @Argument(help: "With `kokoro`: the voices to install (af_heart …; all the packs hold when none is named).")
        var voices: [String] = []

        @Option(
            name: .customLong("from"),
            help: "The Piper voices repository (default: $NARRATE_PIPER_VOICES_URL, else huggingface.co/rhasspy/piper-voices, v1.0.0); with `kokoro`, the folder holding the model and packs."
        )
        var repositoryURL: String?

        @Option(name: .customLong("model"), help: "With `kokoro` from a URL: the model's file in the layout (default kokoro-v1.0.onnx; kokoro-v1.0.int8.onnx is a quarter of its size; onnx-community: onnx/model.onnx, onnx/model_quantized.onnx …).")
        var model: String?

        @Option(name: .customLong("sha256"), help: "With `kokoro` from a URL: the model's SHA-256, checked once it has arrived.")
        var sha256: String?

        @Option(name: .customLong("to"), help: "The voice folder to install into (default: $NARRATE_VOICES_DIR, else $XDG_DATA_HOME/narrate/voices).")
        var directory: String?

        @Option(name: .customLong("max-size"), help: "The largest model accepted (500MB, 2GiB; default 1GiB).")
        var maxSize: ByteSize?

        @Flag(name: [.short, .long], help: "Show no progress.")
        var quiet = false

        /// Whether this installs Kokoro voices.
        var isKokoro: Bool { source.lowercased() == "kokoro" }

        func validate() throws {
            if isKokoro {
                if let maxSize, maxSize.bytes < 1 { throw ValidationError("--max-size must be at least 1 byte.") }
                if let sha256, sha256.count != 64 || !sha256.allSatisfy(\.isHexDigit) { throw ValidationError("--sha256 must be 64 hex digits (got '\(sha256)').") }
                return
            }
            if model != nil || sha256 != nil { throw ValidationError("--model and --sha256 are for `narrate voices install kokoro`.") }
            if !voices.isEmpty { throw ValidationError("Only `narrate voices install kokoro` takes voice names after the source (got '\(voices.joined(separator: " "))').") }
            if let repositoryURL, !["http://", "https://"].contains(where: repositoryURL.lowercased().hasPrefix) {
                throw ValidationError("--from must be an http(s) URL (got '\(repositoryURL)').")
            }
            if let maxSize, maxSize.bytes < 1 { throw ValidationError("--max-size must be at least 1 byte.") }
        }

        func run() async throws {
            let environment = ProcessInfo.processInfo.environment
            let folder = directory ?? NarrateEnvironment.defaultVoiceInstallDirectory(environment: environment)
            if isKokoro {
                try await installKokoro(into: folder)
                return
            }
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

        /// Whether --from names a URL (else a local folder, or nothing: the default URL).
        private var kokoroURL: String? {
            guard let repositoryURL else {
                let environment = ProcessInfo.processInfo.environment
                return environment["NARRATE_KOKORO_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? KokoroDownloadRequest.defaultURL
            }
            return ["http://", "https://"].contains(where: repositoryURL.lowercased().hasPrefix) ? repositoryURL : nil
        }

        private func installKokoro(into folder: String) async throws {
            let directory = URL(fileURLWithPath: folder).standardizedFileURL.path
            if let url = kokoroURL {
                let request = KokoroDownloadRequest(url: url, directory: directory, voices: voices, model: model, sha256: sha256, maxModelBytes: maxSize?.bytes ?? VoiceInstallRequest.defaultMaxModelBytes)
                let logger = Logger(label: "narrate", factory: { StreamLogHandler.standardError(label: $0) })
                let display = DownloadProgressDisplay(quiet: quiet)
                let installation: KokoroInstallation
                do {
                    installation = try await NarrateEnvironment(logger: logger).downloadKokoroVoices().execute(request) { display.update($0) }
                } catch {
                    display.finish()
                    throw CLIMessage(error.description)
                }
                display.finish()
                let checked = sha256 != nil || KokoroDownloadRequest.knownDigests[installation.model] != nil
                print(Self.summary(installation) + (checked ? " (verified)" : " (no published checksum to verify)"))
                return
            }
            let request = KokoroInstallRequest(
                source: URL(fileURLWithPath: repositoryURL ?? ".").standardizedFileURL.path, directory: URL(fileURLWithPath: folder).standardizedFileURL.path,
                voices: voices, maxModelBytes: maxSize?.bytes ?? VoiceInstallRequest.defaultMaxModelBytes
            )
            let logger = Logger(label: "narrate", factory: { StreamLogHandler.standardError(label: $0) })
            let installation: KokoroInstallation
            do { installation = try NarrateEnvironment(logger: logger).installKokoroVoices().execute(request) } catch { throw CLIMessage(error.description) }
            print(Self.summary(installation))
        }

        static func summary(_ installation: KokoroInstallation) -> String {
            let model = installation.modelWasInstalled ? "the Kokoro model \(installation.model) (installed already)" : "the Kokoro model \(installation.model)"
            let count = installation.voices.count == 1 ? "1 voice" : "\(installation.voices.count) voices"
            return """
                Installed \(count) (\(installation.voices.joined(separator: ", "))) with \(model) in \(installation.folder): narrate say --voice \(installation.voices.first ?? "af_heart") "Hello"
                Model SHA-256: \(installation.modelSHA256)
                """
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
