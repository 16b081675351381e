import NarrateData
import NarrateDomain

extension NarrateEnvironment {
    /// Installing Piper voices over HTTP(S) into a voice folder.
    public func installVoice() -> any InstallVoiceUseCaseContract {
        InstallVoiceUseCase(repository: PiperVoiceDownloader())
    }

    /// Installing a Kokoro model and its voices from a local folder into a voice folder.
    public func installKokoroVoices() -> any InstallKokoroVoicesUseCaseContract {
        InstallKokoroVoicesUseCase(repository: KokoroVoiceInstaller())
    }

    /// Installing Kokoro voices over HTTP(S) from a published layout into a voice folder.
    public func downloadKokoroVoices() -> any DownloadKokoroVoicesUseCaseContract {
        DownloadKokoroVoicesUseCase(downloads: PiperVoiceDownloader(), installer: KokoroVoiceInstaller())
    }

    /// The folder voices are installed in by default: `$NARRATE_VOICES_DIR` when set, else
    /// `voices/` in the data folder (`$XDG_DATA_HOME/narrate/voices`, else
    /// `~/.local/share/narrate/voices`). Both are voice folders every command searches.
    public static func defaultVoiceInstallDirectory(environment: [String: String]) -> String {
        if let explicit = environment["NARRATE_VOICES_DIR"], !explicit.isEmpty { return explicit }
        return NarrateConfiguration.defaultDataDirectory(environment: environment) + "/voices"
    }

    /// The Piper voices repository names are looked up in: `$NARRATE_PIPER_VOICES_URL`, else
    /// Piper's own on Hugging Face.
    public static func defaultPiperVoicesURL(environment: [String: String]) -> String {
        if let explicit = environment["NARRATE_PIPER_VOICES_URL"], !explicit.isEmpty { return explicit }
        return VoiceInstallRequest.defaultRepositoryURL
    }
}
