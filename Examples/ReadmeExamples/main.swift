import Logging
import NarrateKit

let logger = Logger(label: "app")
let configuration = NarrateConfiguration.standard()
let cache = try makeAudioCache(configuration: configuration, logger: logger)
let speech = makeSpeakTextUseCase(repository: makeTTSRepository(cache: cache, logger: logger))
let voice = try await makeResolveVoiceUseCase(configuration: configuration).execute(name: "fr", language: nil, overrides: VoiceOverrides(rate: 160))

let writer = try WAVWriter(path: "bonjour.wav")
_ = try await speech.execute(text: "Bonjour tout le monde.", voice: voice, isSSML: false) { audio throws(SpeechError) in
    try writer.append(audio)          // 16-bit mono PCM, sample rate, and word marks
}
try writer.finish()
try await cache?.flush()

let narratePage = try makeNarratePageUseCase(configuration: configuration, logger: logger)
let page = try await narratePage.execute(reference: "moby-dick.epub", page: "1", voice: VoiceRequest(), refresh: false)
let pageWriter = try WAVWriter(path: "page1.wav")
try pageWriter.append(page.narration.audio)
try pageWriter.finish()
print("page \(page.narration.page.label) of '\(page.book.book.metadata.title)', \(page.voice.summary)")

let library = try makeLibraryUseCases(configuration: configuration)
let book = try await library.getBookDetail.execute(reference: "moby-dick.epub")
let export = try await makeExportBookUseCase(configuration: configuration, jobs: 2, logger: logger)
let options = BookExportOptions(directory: "moby", format: .mp3, selection: .chapters(6...7))
for try await event in export.events(book: book.book, voice: page.voice.profile, options: options) {
    if case let .progress(progress) = event { print(progress.pagesDone, "/", progress.pagesTotal) }
}
