import Foundation
import NarrateDomain

/// Writes one export file from its chunks' audio, with its subtitles and, for M4B, its chapter
/// markers. A WAV file's chunks that this run stored are copied from their cache entries in the
/// kernel; any other chunk is read back from the cache by the TTS repository (verified, and
/// synthesized there and then only if its entry went missing).
struct ExportFileWriter: Sendable {
    let directory: String
    let format: ExportFormat
    let subtitles: SubtitleFormat?
    let book: Book
    let voice: VoiceProfile
    /// The engine's rate; 0 when it is the rate the engine delivers (a remote API). A file is
    /// written at its first chunk's rate, and any other chunk is resampled to it.
    let sampleRate: Int
    let fileCount: Int
    let repository: any TTSRepositoryContract
    /// The cache `repository` reads, and each chunk's key in it: a WAV file is assembled from
    /// the entries made in this run by in-kernel copies, without reading them back.
    let cache: any AudioCacheContract
    let key: @Sendable (ExportChunk) -> AudioCacheKey

    func write(_ item: ExportItem, chunks: [ExportChunk], cacheKeys: [String], ready: @Sendable (ExportChunk) async -> Bool) async throws(ExportError) -> ExportedFile {
        let fileName = "\(item.fileStem).\(format.audioFileExtension)"
        let path = directory + "/" + fileName
        // Keyed by position in `item.pages`: a page that several chapters share comes as several pieces.
        let chapterStarts = Dictionary(item.chapters.map { ($0.pageOffset, $0.title) }, uniquingKeysWith: { first, _ in first })
        var markers: [AudioFileMetadata.ChapterMarker] = []
        // A file of several chapters gets chapter navigation (one chapter needs none).
        let chapterTitles = item.chapters.count > 1 ? item.chapters.map(\.title) : []
        let metadata = AudioFileMetadata(
            title: item.title,
            artist: book.metadata.authors.joined(separator: ", "),
            album: book.metadata.title,
            trackNumber: item.number,
            trackCount: fileCount,
            year: book.metadata.date.map { String($0.prefix(4)) },
            language: book.metadata.language,
            cover: book.cover
        )
        var output: AudioFileOutput?
        var sampleRate = sampleRate
        var sampleCount = 0
        var marks: [WordMark] = []
        var startedPages: Set<Int> = []
        let open = { (rate: Int) throws(ExportError) -> AudioFileOutput in
            try AudioFileOutput(format: format, path: path, sampleRate: rate, metadata: metadata, chapterTitles: chapterTitles)
        }
        do throws(ExportError) {
            for chunk in chunks {
                guard await ready(chunk) else {
                    throw .workerFailed(pageLabel: chunk.pageLabel, reason: "its synthesis failed")
                }
                if startedPages.insert(chunk.pageOffset).inserted, let title = chapterStarts[chunk.pageOffset] {
                    markers.append(.init(title: title, startSample: sampleCount))
                }
                let (chunkSamples, chunkMarks) = try await append(chunk, to: &output, sampleRate: &sampleRate, open: open)
                if subtitles != nil || format == .epub {
                    marks.append(contentsOf: chunkMarks.map { $0.shifted(text: chunk.textOffset, samples: sampleCount) })
                }
                sampleCount += chunkSamples
            }
            if sampleRate <= 0 { sampleRate = 24_000 }
            let file: AudioFileOutput
            if let output {
                file = output
            } else {
                file = try open(sampleRate)
                output = file
            }
            // Chapter markers are written at the end (M4B chapters, MP3 CHAP frames), so they
            // are gathered while writing.
            file.setChapters(markers)
            let rate = sampleRate
            try await BlockingWork.run(handing: file) { (file) throws(ExportError) in try file.finish(sampleRate: rate) }
        } catch {
            if let output { await BlockingWork.run(handing: output) { $0.discard() } }
            throw error
        }
        var subtitleFileName: String?
        if let subtitles {
            let cues = SubtitleCueBuilder.cues(text: ExportChunker.text(of: item), wordMarks: marks, sampleRate: sampleRate, totalSamples: sampleCount)
            let name = "\(item.fileStem).\(subtitles.rawValue)"
            let contents = subtitles == .vtt ? SubtitleFormatter.webVTT(cues) : SubtitleFormatter.srt(cues)
            try SubtitleFileWriter.write(contents, to: directory + "/" + name)
            subtitleFileName = name
        }
        if format == .epub {
            // The read-along EPUB's clips: the subtitles' cues, from the same marks.
            let cues = SubtitleCueBuilder.cues(text: ExportChunker.text(of: item), wordMarks: marks, sampleRate: sampleRate, totalSamples: sampleCount)
            let name = ReadAlongEPUBBuilder.timingFileName(stem: item.fileStem)
            try ReadAlongEPUBBuilder.writeTiming(ReadAlongTiming(sampleCount: sampleCount, sampleRate: sampleRate, cues: cues), to: directory + "/" + name)
            subtitleFileName = name
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
        return ExportedFile(
            number: item.number,
            fileName: fileName,
            title: item.title,
            subtitleFileName: subtitleFileName,
            pageLabels: Self.pageLabels(of: item),
            chapterTitles: item.chapters.map(\.title),
            duration: Double(sampleCount) / Double(sampleRate),
            sampleCount: sampleCount,
            byteCount: size,
            cacheKeys: cacheKeys,
            chapterStarts: markers.map { .init(title: $0.title, seconds: Double($0.startSample) / Double(sampleRate)) }
        )
    }

    /// Appends `chunk` to the file, which its first chunk opens at that chunk's rate: copied in
    /// the kernel from its cache entry where this run stored it and the file is WAV at the same
    /// rate, else its audio read back from the cache (verified) and resampled if need be.
    /// - Returns: the chunk's sample count and word marks.
    private func append(
        _ chunk: ExportChunk, to output: inout AudioFileOutput?, sampleRate: inout Int, open: (Int) throws(ExportError) -> AudioFileOutput
    ) async throws(ExportError) -> (samples: Int, marks: [WordMark]) {
        if format == .wav, let source = await cache.freshSource(key: key(chunk)), output == nil || source.sampleRate == sampleRate {
            if output == nil {
                if source.sampleRate > 0 { sampleRate = source.sampleRate }
                output = try open(sampleRate)
            }
            if try output?.appendCopy(of: source) == true { return (source.sampleCount, source.wordMarks) }
        }
        var audio: SpeechAudio
        do {
            audio = try await repository.synthesize(SpeechRequest(text: chunk.text, voice: chunk.voice ?? voice), cachePolicy: .localFirst)
        } catch {
            throw .synthesisFailed(pageLabel: chunk.pageLabel, error)
        }
        if output == nil {
            if audio.sampleRate > 0 { sampleRate = audio.sampleRate }
            output = try open(sampleRate)
        } else if audio.sampleRate != sampleRate {
            audio = audio.resampled(to: sampleRate)
        }
        try output?.append(audio)
        return (audio.samples.count, audio.wordMarks)
    }

    /// The labels of the item's pages, each once: the pieces of a page that chapters share have its label.
    static func pageLabels(of item: ExportItem) -> [String] {
        var labels: [String] = []
        var previous: Int?
        for page in item.pages where page.index != previous {
            labels.append(page.label)
            previous = page.index
        }
        return labels
    }
}
