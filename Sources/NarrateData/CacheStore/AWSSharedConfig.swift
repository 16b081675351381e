import Foundation

/// The AWS tools' shared files, `~/.aws/credentials` and `~/.aws/config`, as INI sections of
/// `key = value` lines. In the credentials file a section is the profile's name; in the config
/// file it is `profile NAME`, but `default` for the default profile.
struct AWSSharedConfig: Sendable, Equatable {
    /// Section name → its settings (keys lowercased).
    var sections: [String: [String: String]]

    init(text: String) {
        var sections: [String: [String: String]] = [:]
        var current: String?
        for raw in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                let name = String(line.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
                current = name
                sections[name, default: [:]] = sections[name, default: [:]]
                continue
            }
            // An indented line continues a nested block (`s3 =` then `  endpoint_url = …`),
            // which the AWS CLI reads; only top-level keys are taken here.
            guard let current, raw.first != " ", raw.first != "\t", let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            sections[current, default: [:]][key] = value
        }
        self.sections = sections
    }

    /// The settings of `profile` in a credentials file.
    func credentialsProfile(_ profile: String) -> [String: String]? {
        sections[profile]
    }

    /// The settings of `profile` in a config file.
    func configProfile(_ profile: String) -> [String: String]? {
        profile == "default" ? (sections["default"] ?? sections["profile default"]) : sections["profile \(profile)"]
    }
}
