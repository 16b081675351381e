import Testing

@testable import NarrateData

@Suite("Cache store settings")
struct CacheStoreSettingsTests {
    private static func resolve(_ location: String, _ environment: [String: String], files: [String: String] = [:], addressing: CacheStoreSettings.Addressing? = nil) throws(CacheStoreError) -> CacheStoreSettings {
        try CacheStoreSettings.resolve(location: location, addressing: addressing, environment: ["HOME": "/home/u"].merging(environment) { $1 }, readFile: { files[$0] })
    }

    @Test("A non-AWS endpoint comes from AWS_ENDPOINT_URL_S3 before AWS_ENDPOINT_URL, path-style, keys from the environment")
    func endpointAndKeys() throws {
        let settings = try Self.resolve("s3://narrate-cache/fleet/a/", [
            "AWS_ENDPOINT_URL": "http://other:1", "AWS_ENDPOINT_URL_S3": "http://127.0.0.1:8333/",
            "AWS_ACCESS_KEY_ID": "AK", "AWS_SECRET_ACCESS_KEY": "SK", "AWS_SESSION_TOKEN": "TK", "AWS_REGION": "auto",
        ])

        #expect(settings.bucket == "narrate-cache")
        #expect(settings.prefix == "fleet/a")
        #expect(settings.endpoint == "http://127.0.0.1:8333")
        #expect(settings.region == "auto")
        #expect(settings.addressing == .path)
        #expect(settings.credentials == .key(AWSCredentials(accessKeyID: "AK", secretAccessKey: "SK", sessionToken: "TK")))
        #expect(settings.location == "s3://narrate-cache/fleet/a")
        #expect(settings.objectKey(hex: "abcdef") == "fleet/a/ab/abcdef")
        #expect(settings.caBundle == nil)
    }

    @Test("An https endpoint's authorities come from AWS_CA_BUNDLE, else the profile's ca_bundle")
    func caBundle() throws {
        let files = ["/home/u/.aws/config": "[default]\nca_bundle = /etc/profile-ca.pem\n"]
        #expect(try Self.resolve("s3://bucket", [:], files: files).caBundle == "/etc/profile-ca.pem")
        #expect(try Self.resolve("s3://bucket", ["AWS_CA_BUNDLE": "/etc/env-ca.pem"], files: files).caBundle == "/etc/env-ca.pem")
    }

    @Test("Without an endpoint it is AWS, virtual-host style, in the profile's region with the profile's keys")
    func profiles() throws {
        let files = [
            "/home/u/.aws/credentials": "[default]\naws_access_key_id = D\naws_secret_access_key = DS\n[work]\naws_access_key_id=W\naws_secret_access_key=WS\naws_session_token = WT\n",
            "/home/u/.aws/config": "[default]\nregion = eu-west-1\n[profile work]\nregion = eu-central-1\ns3 =\n  addressing_style = path\n",
        ]

        let standard = try Self.resolve("s3://bucket", [:], files: files)
        let work = try Self.resolve("s3://bucket", ["AWS_PROFILE": "work"], files: files)

        #expect(standard.endpoint == "https://s3.eu-west-1.amazonaws.com")
        #expect(standard.addressing == .virtualHost)
        #expect(standard.credentials == .key(AWSCredentials(accessKeyID: "D", secretAccessKey: "DS")))
        #expect(work.region == "eu-central-1")
        #expect(work.credentials == .key(AWSCredentials(accessKeyID: "W", secretAccessKey: "WS", sessionToken: "WT")))
        #expect(work.prefix == "")
    }

    @Test("A profile's endpoint_url and a web identity in the config file are taken")
    func configFileEndpointAndWebIdentity() throws {
        let files = ["/home/u/.aws/config": "[profile r2]\nendpoint_url = https://acct.r2.cloudflarestorage.com\nregion = auto\nrole_arn = arn:aws:iam::1:role/r\nweb_identity_token_file = /var/run/token\n"]

        let settings = try Self.resolve("s3://bucket/p", ["AWS_PROFILE": "r2"], files: files)

        #expect(settings.endpoint == "https://acct.r2.cloudflarestorage.com")
        #expect(settings.addressing == .path)
        #expect(settings.credentials == .webIdentity(tokenFile: "/var/run/token", roleARN: "arn:aws:iam::1:role/r", sessionName: "narrate", stsEndpoint: "https://sts.us-east-1.amazonaws.com"))
    }

    @Test("The environment's web identity comes before profiles; nothing at all means unsigned requests")
    func webIdentityAndAnonymous() throws {
        let identity = try Self.resolve("s3://bucket", ["AWS_WEB_IDENTITY_TOKEN_FILE": "/t", "AWS_ROLE_ARN": "arn:r", "AWS_REGION": "eu-west-3"])
        let none = try Self.resolve("s3://bucket", [:])

        #expect(identity.credentials == .webIdentity(tokenFile: "/t", roleARN: "arn:r", sessionName: "narrate", stsEndpoint: "https://sts.eu-west-3.amazonaws.com"))
        #expect(none.credentials == .anonymous)
        #expect(none.region == "us-east-1")
    }

    @Test("Virtual-host addressing can be asked for on any endpoint")
    func virtualOnRequest() throws {
        let settings = try Self.resolve("s3://bucket", ["AWS_ENDPOINT_URL": "https://minio.example:9000"], addressing: .virtualHost)
        #expect(settings.addressing == .virtualHost)
        #expect(S3ObjectStore(settings: settings).address(hex: "ab12").base == "https://bucket.minio.example:9000")
    }

    @Test("Bad settings get one line that says what to fix", arguments: [
        ("http://bucket/x", [String: String]()),
        ("s3://Bad_Bucket", [:]),
        ("s3://ok-bucket/../up", [:]),
        ("s3://ok-bucket", ["AWS_ACCESS_KEY_ID": "AK"]),
        ("s3://ok-bucket", ["AWS_PROFILE": "missing"]),
        ("s3://ok-bucket", ["AWS_ENDPOINT_URL": "ftp://host"]),
        ("s3://ok-bucket", ["AWS_WEB_IDENTITY_TOKEN_FILE": "/t"]),
    ])
    func badSettings(location: String, environment: [String: String]) {
        #expect {
            try Self.resolve(location, environment)
        } throws: { error in
            guard case let .badSetting(message) = error as? CacheStoreError else { return false }
            return !message.contains("\n") && !message.isEmpty
        }
    }
}
