import ArgumentParser
import Foundation
import Logging
import NarrateKit
import NarrateServer

extension Narrate {
    /// `narrate serve`: the speech service.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve OpenAI's speech API, the library over HTTP, and Home Assistant's Wyoming protocol.",
            discussion: """
            POST /v1/audio/speech speaks like OpenAI's API (any openai SDK works with base_url \
            http://HOST:PORT/v1), from the same audio cache as the CLI. GET /openapi.json describes \
            every route. SIGTERM stops accepting, finishes requests in flight and exits 0.
            """
        )

        @Option(name: .long, help: "The address to listen on (loopback by default).")
        var host = "127.0.0.1"

        @Option(name: .long, help: "The HTTP port (0: any free port, printed at start).")
        var port = 8880

        @Option(name: .customLong("wyoming-port"), help: "Also serve Home Assistant's Wyoming protocol on this TCP port (10200 is usual).")
        var wyomingPort: Int?

        @Option(name: .long, help: "Texts synthesized at once, each in an eSpeak worker process (default: the number of cores).")
        var workers: Int?

        @Option(name: .customLong("api-key-file"), help: "A file of accepted API keys, one per line: clients send 'Authorization: Bearer KEY'.")
        var apiKeyFile: String?

        @Flag(name: .customLong("allow-unauthenticated"), help: "Serve on a non-loopback address without API keys.")
        var allowUnauthenticated = false

        @Option(name: .customLong("allowed-host"), help: ArgumentHelp("Another host name clients may reach the service by (repeatable; .example.com for every name under it, * for any). Loopback names and IP addresses always may. Also NARRATE_ALLOWED_HOSTS, comma-separated.", valueName: "name"))
        var allowedHosts: [String] = []

        @Option(name: .customLong("allowed-origin"), help: ArgumentHelp("A web origin whose pages may use the API, with CORS (repeatable; scheme://host[:port], * for any). Also NARRATE_ALLOWED_ORIGINS, comma-separated.", valueName: "origin"))
        var allowedOrigins: [String] = []

        @Option(name: .customLong("exports-max-bytes"), help: "The most the finished exports kept for download may take (bytes, or with K, M, G); the oldest go first.")
        var exportsMaxBytes = "4G"

        @Option(name: .customLong("exports-max-age"), help: "Hours a finished export is kept for download.")
        var exportsMaxAge = 168.0

        @Flag(name: .customLong("no-web"), help: "Serve no listening-room page at / (the API only).")
        var noWeb = false

        @Option(name: .customLong("max-input"), help: "The most characters one speech request may have.")
        var maxInput = 4_096

        @Option(name: .long, help: "Requests that may wait for a worker; one more gets 429 with Retry-After.")
        var queue = 64

        @Option(name: .long, help: "The voice when a request names none (Wyoming): a preset, an installed Piper voice or an eSpeak voice, by name.")
        var voice = "narrator"

        @Option(name: .customLong("shutdown-deadline"), help: "Seconds SIGTERM waits for requests in flight.")
        var shutdownDeadline = 30

        @OptionGroup var storage: StorageOptions

        @OptionGroup(title: "Upstream") var remote: RemoteOptions

        @Option(name: .customLong("remote-api-key-file"), help: "The upstream API's key, on the file's first line, when neither NARRATE_API_KEY nor OPENAI_API_KEY is set.")
        var remoteAPIKeyFile: String?

        func validate() throws {
            if let workers, workers < 1 || workers > 256 { throw ValidationError("--workers must be from 1 to 256 (got \(workers)).") }
            if shutdownDeadline < 0 || shutdownDeadline > 3_600 { throw ValidationError("--shutdown-deadline must be from 0 to 3600 seconds (got \(shutdownDeadline)).") }
            if let problem = try server().problem { throw ValidationError(problem.prefix(1).uppercased() + problem.dropFirst() + ".") }
        }

        func run() async throws {
            MemoryTuning.applyForService()
            let logger = storage.makeServiceLogger()
            var configuration = storage.configuration()
            if let workers { configuration.engineWorkers = workers }
            // An upstream API speaks instead of eSpeak NG: one request in flight per worker.
            try remote.apply(to: &configuration, preset: nil, keyFile: remoteAPIKeyFile, jobs: configuration.engineWorkers)
            if let upstream = configuration.remote {
                logger.info("Speaking through \(upstream.endpoint) (model \(upstream.model), voice \(upstream.voice))\(configuration.fallsBackToESpeak ? ", eSpeak NG as the fallback" : "")")
            }
            let server = try server()
            let service = try NarrateServer(configuration: configuration, server: server, logger: logger)
            try await service.run { addresses in
                var line = "Listening on \(addresses.joined(separator: " and "))"
                if server.apiKeys.isEmpty { line += " (no API keys)" }
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            }
        }

        /// The server settings; the keys read from `--api-key-file`.
        private func server() throws -> ServerConfiguration {
            var server = ServerConfiguration()
            server.host = host
            server.port = port
            server.wyomingPort = wyomingPort
            server.web = !noWeb
            server.maxInput = maxInput
            server.queueLimit = queue
            server.allowUnauthenticated = allowUnauthenticated
            let environment = ProcessInfo.processInfo.environment
            func list(_ name: String) -> [String] {
                (environment[name] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            }
            server.allowedHosts = allowedHosts + list("NARRATE_ALLOWED_HOSTS")
            server.allowedOrigins = allowedOrigins + list("NARRATE_ALLOWED_ORIGINS")
            guard let maxBytes = ServerConfiguration.byteCount(exportsMaxBytes) else {
                throw ValidationError("--exports-max-bytes '\(exportsMaxBytes)' is not a size: give bytes, or a number with K, M or G (4G).")
            }
            server.exportsMaxBytes = maxBytes
            server.exportsMaxAge = .seconds(exportsMaxAge * 3_600)
            // Clients name voices the catalog lists, never files: so does the default voice.
            guard VoiceNameRule.admits(voice) else {
                throw ValidationError("--voice '\(VoiceNameRule.shown(voice))' names a file: the service speaks the voices it lists. Put the model in a voice folder (NARRATE_VOICES_DIR) and give its name.")
            }
            server.defaultVoice = voice
            server.shutdownDeadline = .seconds(shutdownDeadline)
            if let apiKeyFile {
                guard let text = try? String(contentsOfFile: apiKeyFile, encoding: .utf8) else {
                    throw ValidationError("Cannot read the API key file '\(apiKeyFile)'. Give a readable file with one key per line.")
                }
                server.apiKeys = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
                guard !server.apiKeys.isEmpty else {
                    throw ValidationError("The API key file '\(apiKeyFile)' holds no key. Put one key per line.")
                }
            }
            return server
        }
    }
}
