import Logging
import NarrateData
import NarrateDomain

// The composition root: the only place that knows concrete types from both sides.

/// The speech path: eSpeak NG behind `cache` (none: every request is synthesized).
public func makeTTSRepository(cache: (any AudioCacheContract)?, logger: Logger) -> any TTSRepositoryContract {
    TTSRepository(synthesizer: ESpeakSynthesizer(), cache: cache, logger: logger)
}

/// The audio cache the configuration names, or `nil` when caching is off.
public func makeAudioCache(configuration: NarrateConfiguration, logger: Logger) throws(SpeechError) -> (any AudioCacheContract)? {
    guard let directory = configuration.cacheDirectory else { return nil }
    do {
        return try AudioCache(directory: directory, logger: logger)
    } catch {
        throw .cacheFailed(error)
    }
}

public func makeSpeakTextUseCase(repository: any TTSRepositoryContract) -> any SpeakTextUseCaseContract {
    SpeakTextUseCase(repository: repository)
}

public func makeBookSourceRepository(configuration: NarrateConfiguration) -> any BookSourceRepositoryContract {
    FileBookSourceRepository(parsers: [PlainTextParser()], options: ParseOptions(wordsPerPage: configuration.wordsPerPage))
}

public func makeGetPageNarrationUseCase(configuration: NarrateConfiguration, repository: any TTSRepositoryContract) -> any GetPageNarrationUseCaseContract {
    GetPageNarrationUseCase(bookRepository: makeBookSourceRepository(configuration: configuration), ttsRepository: repository)
}

public func makeRefreshPageNarrationUseCase(configuration: NarrateConfiguration, repository: any TTSRepositoryContract) -> any RefreshPageNarrationUseCaseContract {
    RefreshPageNarrationUseCase(bookRepository: makeBookSourceRepository(configuration: configuration), ttsRepository: repository)
}

public func makeGetPagesUseCase(configuration: NarrateConfiguration) -> any GetPagesUseCaseContract {
    GetPagesUseCase(repository: makeBookSourceRepository(configuration: configuration))
}

public func makeVoiceRepository(configuration: NarrateConfiguration) -> any VoiceRepositoryContract {
    let synthesizer = ESpeakSynthesizer()
    return VoiceRepository(presetDirectories: configuration.voiceDirectories) { () throws(SpeechError) in
        (try await synthesizer.voices(), try await synthesizer.variants())
    }
}

public func makeGetVoicesUseCase(configuration: NarrateConfiguration) -> any GetVoicesUseCaseContract {
    GetVoicesUseCase(repository: makeVoiceRepository(configuration: configuration))
}

public func makeResolveVoiceUseCase(configuration: NarrateConfiguration) -> any ResolveVoiceUseCaseContract {
    ResolveVoiceUseCase(repository: makeVoiceRepository(configuration: configuration))
}
