import Foundation

/// Resolution of the relative references (`href`, `src`, `full-path`) inside an EPUB.
enum EPUBPath {
    /// The folder part of an entry name (`OPS/text/ch1.xhtml` → `OPS/text`).
    static func directory(of entry: String) -> String {
        guard let slash = entry.lastIndex(of: "/") else { return "" }
        return String(entry[..<slash])
    }

    /// Splits `href` into its path and fragment (without `#`).
    static func split(_ href: String) -> (path: String, fragment: String?) {
        guard let hash = href.firstIndex(of: "#") else { return (href, nil) }
        let fragment = String(href[href.index(after: hash)...])
        return (String(href[..<hash]), fragment.isEmpty ? nil : fragment.removingPercentEncoding ?? fragment)
    }

    /// Whether `href` names another resource (a URL with a scheme) rather than a file in the book.
    static func isExternal(_ href: String) -> Bool {
        guard let colon = href.firstIndex(of: ":") else { return false }
        let scheme = href[..<colon]
        return !scheme.isEmpty && !scheme.contains("/") && scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }
    }

    /// The archive entry name `href` points to from the folder `base`, or nil when it leaves the
    /// archive (too many `..`, absolute path) or is external.
    static func resolve(_ href: String, from base: String) -> String? {
        let path = split(href).path
        guard !isExternal(path), !path.hasPrefix("/") else { return nil }
        let decoded = path.removingPercentEncoding ?? path
        var components = base.split(separator: "/").map(String.init)
        for component in decoded.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..":
                guard !components.isEmpty else { return nil }
                components.removeLast()
            default: components.append(String(component))
            }
        }
        return components.joined(separator: "/")
    }
}
