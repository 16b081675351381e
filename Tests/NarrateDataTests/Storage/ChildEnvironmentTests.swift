import Testing

@testable import NarrateData

@Suite struct ChildEnvironmentTests {
    @Test("every variable that may hold a credential is removed; what programs need stays")
    func strips() {
        // Given
        let environment = [
            "PATH": "/usr/bin", "HOME": "/root", "LANG": "C.UTF-8", "ESPEAK_DATA_PATH": "/usr/share", "NARRATE_WORKER_HUB": "1/x",
            "AWS_SECRET_ACCESS_KEY": "s", "AWS_ACCESS_KEY_ID": "a", "AWS_SESSION_TOKEN": "t", "AWS_PROFILE": "p", "OPENAI_API_KEY": "k",
            "NARRATE_API_KEY": "k", "GITHUB_TOKEN": "g", "DB_PASSWORD": "p", "NARRATE_CACHE_STORE_KEY_FILE": "/k", "HF_TOKEN": "h",
            "GOOGLE_APPLICATION_CREDENTIALS": "/c", "SSH_PRIVATE_KEY": "x", "ANTHROPIC_API_KEY": "k",
        ]

        // When
        let stripped = ChildEnvironment.withoutSecrets(environment)

        // Then
        #expect(stripped == ["PATH": "/usr/bin", "HOME": "/root", "LANG": "C.UTF-8", "ESPEAK_DATA_PATH": "/usr/share", "NARRATE_WORKER_HUB": "1/x"])
    }
}
