import Foundation

/// The environment a child process that parses untrusted input starts with (the engine
/// workers, ffmpeg): this process's, without any credential. A worker that a hostile text or
/// model took over then finds no key to the store, the upstream API or the service.
public enum ChildEnvironment {
    /// Variables removed by name: the AWS ones (keys, tokens, profiles that point at them).
    static let prefixes = ["AWS_"]
    /// Variables removed when their name contains one of these (upper-cased).
    static let fragments = ["SECRET", "TOKEN", "PASSWORD", "PASSWD", "CREDENTIAL", "API_KEY", "APIKEY", "PRIVATE"]
    /// … or ends with one of these.
    static let suffixes = ["_KEY", "_KEYS", "_KEY_FILE", "_KEYS_FILE"]

    /// Whether the variable `name` may hold a credential.
    public static func isSecret(_ name: String) -> Bool {
        let upper = name.uppercased()
        return prefixes.contains { upper.hasPrefix($0) } || fragments.contains { upper.contains($0) } || suffixes.contains { upper.hasSuffix($0) }
    }

    /// `environment` without the variables that may hold a credential.
    public static func withoutSecrets(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        environment.filter { !isSecret($0.key) }
    }

    /// `withoutSecrets` as `NAME=value` C strings for `posix_spawn`, ending in `nil`; the
    /// caller frees them.
    public static func cStrings(_ environment: [String: String] = withoutSecrets()) -> [UnsafeMutablePointer<CChar>?] {
        environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    }
}
