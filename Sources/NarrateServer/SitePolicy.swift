import Foundation

/// Which sites may use the service, as Jupyter and Ollama decide it: a request must name this
/// service in `Host` (a loopback name or address, any IP address, the bound host, or a name
/// given with `--allowed-host`), which stops DNS rebinding; and a request another site's page
/// makes (a cross-site `Origin`, or `Sec-Fetch-Site: cross-site` or `same-site`) may only fetch
/// the page's own static files and the health checks, unless its origin is named with
/// `--allowed-origin` (which CORS then lets read the answers). Clients that are not browsers
/// send neither header and are not affected.
struct SitePolicy: Sendable {
    /// The host the service listens on (`--host`).
    var boundHost: String
    /// `--allowed-host` values: a name, `.example.com` for it and every name under it, or `*`.
    var allowedHosts: [String] = []
    /// `--allowed-origin` values: `scheme://host[:port]`, or `*` for every origin.
    var allowedOrigins: [String] = []

    /// What the policy says of one request.
    enum Verdict: Equatable {
        /// Go on; `corsOrigin` is an allowed foreign origin to answer with CORS headers.
        case allowed(corsOrigin: String?)
        /// `Host` names no host of this service.
        case wrongHost(String)
        /// Another site's page asked for something only this service's page and clients may.
        case crossSite(String)
    }

    /// Paths any site may fetch with GET or HEAD: the page's static files and the checks.
    static let openToEverySite: Set<String> = Set(["/healthz", "/readyz", "/openapi.json", "/metrics"]).union(WebController.files.keys)

    /// - Parameters:
    ///   - host: the request's authority (`Host`), `nil` when it sent none.
    ///   - origin: its `Origin` header; `fetchSite`: its `Sec-Fetch-Site` header.
    func verdict(method: String, path: String, host: String?, origin: String?, fetchSite: String?) -> Verdict {
        if let host, !allows(host: host) { return .wrongHost(host) }
        var foreign: String?
        if let origin, !Self.sameOrigin(origin, host: host) { foreign = origin }
        let site = fetchSite?.lowercased()
        let crossSiteFetch = site == "cross-site" || site == "same-site"
        guard foreign != nil || crossSiteFetch else { return .allowed(corsOrigin: nil) }
        if let foreign, allows(origin: foreign) { return .allowed(corsOrigin: foreign) }
        if (method == "GET" || method == "HEAD"), Self.openToEverySite.contains(path) { return .allowed(corsOrigin: nil) }
        return .crossSite(foreign ?? "a page of another site")
    }

    /// Whether `authority` (`host[:port]`) names this service.
    func allows(host authority: String) -> Bool {
        let name = Self.hostName(authority)
        if name.isEmpty { return false }
        if Self.isIPAddress(name) || name == "localhost" || name.hasSuffix(".localhost") { return true }
        if name == boundHost.lowercased() { return true }
        return allowedHosts.contains { allowed in
            let allowed = allowed.lowercased()
            if allowed == "*" { return true }
            if allowed.hasPrefix(".") { return name == allowed.dropFirst() || name.hasSuffix(allowed) }
            return name == allowed
        }
    }

    func allows(origin: String) -> Bool {
        allowedOrigins.contains { $0 == "*" || $0.lowercased() == origin.lowercased() }
    }

    /// Whether `origin` (`scheme://host[:port]`) is the service's own, as `host` names it.
    static func sameOrigin(_ origin: String, host: String?) -> Bool {
        guard let host, let separator = origin.range(of: "://") else { return false }
        let authority = origin[separator.upperBound...]
        return authority.lowercased() == host.lowercased()
    }

    /// The host of `host[:port]` or `[v6]:port`, lowercased, without a final dot.
    static func hostName(_ authority: String) -> String {
        var text = authority.lowercased()
        if text.hasPrefix("[") {
            guard let end = text.firstIndex(of: "]") else { return "" }
            return String(text[text.index(after: text.startIndex)..<end])
        }
        if let colon = text.lastIndex(of: ":") { text = String(text[..<colon]) }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// Whether `name` is an IPv4 address in dotted decimal or an IPv6 address: a browser that
    /// fetches one connects to that address, so no name can be rebound onto it.
    static func isIPAddress(_ name: String) -> Bool {
        if name.contains(":") { return name.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." } }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber) && Int(part)! <= 255 }
    }
}
