import Foundation
import NarrateDomain

/// An API key that never prints: its descriptions, its mirror and its encoded form hide it, so
/// neither a log line, an error nor a dump can show it. It is only ever read by the request that
/// sends it.
public struct RemoteAPIKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let secret: String

    /// `nil` for a value that is empty once trimmed.
    public init?(_ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, !trimmed.contains(where: \.isNewline) else { return nil }
        secret = trimmed
    }

    public var description: String { "<api key>" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }

    /// The variables a key is read from, in order.
    public static let environmentVariables = ["NARRATE_API_KEY", "OPENAI_API_KEY"]

    /// This process's environment without the key variables: what eSpeak's workers are given,
    /// so that no other process ever sees a key.
    public static func environmentWithoutKeys(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        ChildEnvironment.withoutSecrets(environment).filter { !environmentVariables.contains($0.key) }
    }

    /// The key from `NARRATE_API_KEY`, else `OPENAI_API_KEY`, else the first line of `file`;
    /// `nil` when none gives one (a server on loopback may need no key).
    /// - Throws: `SpeechError.remoteRefused` (status 0) when `file` cannot be read or is empty.
    public static func load(environment: [String: String], file: String?) throws(SpeechError) -> RemoteAPIKey? {
        for name in environmentVariables {
            if let value = environment[name], let key = RemoteAPIKey(value) { return key }
        }
        guard let file else { return nil }
        guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
            throw .remoteRefused(status: 0, reason: .keyFileUnreadable(path: file))
        }
        guard let line = text.split(whereSeparator: \.isNewline).first, let key = RemoteAPIKey(String(line)) else {
            throw .remoteRefused(status: 0, reason: .keyFileEmpty(path: file))
        }
        return key
    }
}
