import Foundation

extension CacheStoreSettings {
    /// The settings for `location` (`s3://bucket/prefix`), found as the AWS CLI and SDKs find
    /// them:
    /// - the endpoint from `AWS_ENDPOINT_URL_S3`, else `AWS_ENDPOINT_URL`, else the profile's
    ///   `endpoint_url` in `~/.aws/config`, else AWS's own (`https://s3.REGION.amazonaws.com`);
    /// - the certificate authorities of an `https://` endpoint from `AWS_CA_BUNDLE`, else the
    ///   profile's `ca_bundle`, else the system's trust store;
    /// - the region from `AWS_REGION`, else `AWS_DEFAULT_REGION`, else the profile's `region`,
    ///   else `us-east-1` (`auto`, as R2 wants it, is passed on as it is);
    /// - credentials from `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` / `AWS_SESSION_TOKEN`,
    ///   else a web identity (`AWS_WEB_IDENTITY_TOKEN_FILE` with `AWS_ROLE_ARN`), else the
    ///   profile (`AWS_PROFILE`, else `default`) in `~/.aws/credentials` (`AWS_SHARED_CREDENTIALS_FILE`)
    ///   and `~/.aws/config` (`AWS_CONFIG_FILE`), else none: unsigned requests, for a public bucket;
    /// - the fleet key from the file `NARRATE_CACHE_STORE_KEY_FILE` names, if any.
    /// - Parameters:
    ///   - addressing: `path` or `virtual`; by default path-style for an endpoint that is not
    ///     AWS's, virtual-host on AWS.
    ///   - readFile: reads a file's text (the AWS files), `nil` when it does not exist.
    /// - Throws: `CacheStoreError.badSetting` with the one line that says what to fix.
    public static func resolve(
        location: String, addressing: Addressing? = nil, environment: [String: String],
        readFile: (String) -> String? = { try? String(contentsOfFile: $0, encoding: .utf8) }
    ) throws(CacheStoreError) -> CacheStoreSettings {
        let (bucket, prefix) = try parse(location)
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let home = value("HOME") ?? NSHomeDirectory()
        let profileName = value("AWS_PROFILE") ?? "default"
        let configFile = value("AWS_CONFIG_FILE") ?? home + "/.aws/config"
        let credentialsFile = value("AWS_SHARED_CREDENTIALS_FILE") ?? home + "/.aws/credentials"
        let config = readFile(configFile).map(AWSSharedConfig.init(text:))
        let shared = readFile(credentialsFile).map(AWSSharedConfig.init(text:))
        let configProfile = config?.configProfile(profileName)
        let credentialsProfile = shared?.credentialsProfile(profileName)
        if value("AWS_PROFILE") != nil, configProfile == nil, credentialsProfile == nil {
            throw .badSetting("The AWS profile '\(profileName)' (AWS_PROFILE) is in neither \(credentialsFile) nor \(configFile). Name a profile they hold, or unset AWS_PROFILE.")
        }
        let region = value("AWS_REGION") ?? value("AWS_DEFAULT_REGION") ?? configProfile?["region"] ?? "us-east-1"
        let explicitEndpoint = value("AWS_ENDPOINT_URL_S3") ?? value("AWS_ENDPOINT_URL") ?? configProfile?["endpoint_url"]
        let endpoint = try explicitEndpoint.map(checkedEndpoint) ?? "https://s3.\(region).amazonaws.com"
        let credentials = try findCredentials(
            environment: value, profileName: profileName, credentialsProfile: credentialsProfile, configProfile: configProfile, region: region)
        var settings = CacheStoreSettings(
            bucket: bucket, prefix: prefix, endpoint: endpoint, region: region,
            addressing: addressing ?? (explicitEndpoint == nil ? .virtualHost : .path), credentials: credentials)
        settings.caBundle = value("AWS_CA_BUNDLE") ?? configProfile?["ca_bundle"]
        if let keyFile = value(CacheStoreSeal.environmentName) {
            settings.seal = try CacheStoreSeal.from(file: keyFile, text: readFile(keyFile))
        }
        return settings
    }

    /// `s3://bucket[/prefix…]` → the bucket and the prefix without outer slashes.
    static func parse(_ location: String) throws(CacheStoreError) -> (bucket: String, prefix: String) {
        guard location.hasPrefix("s3://") else {
            throw .badSetting("The cache store '\(location)' is not an s3:// address. Give one such as s3://my-bucket/narrate.")
        }
        let rest = location.dropFirst("s3://".count)
        let bucket = String(rest.prefix { $0 != "/" })
        let prefix = rest.dropFirst(bucket.count).split(separator: "/").joined(separator: "/")
        // S3's bucket names: 3–63 lowercase letters, digits, dots and hyphens.
        let allowed = bucket.utf8.allSatisfy { (0x61...0x7a).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2e || $0 == 0x2d }
        guard (3...63).contains(bucket.utf8.count), allowed else {
            throw .badSetting("The cache store's bucket '\(bucket)' is not a valid bucket name (3 to 63 lowercase letters, digits, dots and hyphens).")
        }
        guard prefix.utf8.count <= 512, !prefix.split(separator: "/").contains(where: { $0 == "." || $0 == ".." }) else {
            throw .badSetting("The cache store's prefix '\(prefix)' is not usable: keep it under 512 bytes, without . or .. segments.")
        }
        return (bucket, prefix)
    }

    private static func checkedEndpoint(_ text: String) throws(CacheStoreError) -> String {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
            throw .badSetting("The S3 endpoint '\(text)' (AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL) is not an http:// or https:// address.")
        }
        let port = url.port.map { ":\($0)" } ?? ""
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(bracketed)\(port)"
    }

    private static func findCredentials(
        environment value: (String) -> String?, profileName: String,
        credentialsProfile: [String: String]?, configProfile: [String: String]?, region: String
    ) throws(CacheStoreError) -> Credentials {
        if let key = value("AWS_ACCESS_KEY_ID") {
            guard let secret = value("AWS_SECRET_ACCESS_KEY") else {
                throw .badSetting("AWS_ACCESS_KEY_ID is set without AWS_SECRET_ACCESS_KEY. Set both, or neither to use a profile.")
            }
            return .key(AWSCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: value("AWS_SESSION_TOKEN")))
        }
        let stsEndpoint = value("AWS_ENDPOINT_URL_STS") ?? "https://sts.\(region == "auto" ? "us-east-1" : region).amazonaws.com"
        let sessionName = value("AWS_ROLE_SESSION_NAME") ?? "narrate"
        if let tokenFile = value("AWS_WEB_IDENTITY_TOKEN_FILE") {
            guard let role = value("AWS_ROLE_ARN") else {
                throw .badSetting("AWS_WEB_IDENTITY_TOKEN_FILE is set without AWS_ROLE_ARN. Set the role to assume.")
            }
            return .webIdentity(tokenFile: tokenFile, roleARN: role, sessionName: sessionName, stsEndpoint: stsEndpoint)
        }
        for profile in [credentialsProfile, configProfile].compactMap({ $0 }) {
            if let key = profile["aws_access_key_id"], let secret = profile["aws_secret_access_key"] {
                return .key(AWSCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: profile["aws_session_token"]))
            }
        }
        if let profile = configProfile, let tokenFile = profile["web_identity_token_file"], let role = profile["role_arn"] {
            return .webIdentity(tokenFile: tokenFile, roleARN: role, sessionName: profile["role_session_name"] ?? sessionName, stsEndpoint: stsEndpoint)
        }
        return .anonymous
    }
}
