import Foundation
import NarrateKit

/// What a page's timing is made from, kept beside its rendered audio (`responses/<tag>.json`)
/// when the page is narrated: the text, the audio's length and rate, and its word marks. The
/// timing route answers JSON and WebVTT from it without narrating the page again.
struct PageTimingRecord: Codable, Sendable, Equatable {
    var text: String
    var sampleRate: Int
    var sampleCount: Int
    var timing: SpeechTiming
    var marks: [WordMark]

    /// The record of `audio`, narrated from `text` by an engine that times `timing`.
    init(text: String, audio: SpeechAudio, timing: SpeechTiming) {
        self.text = text
        sampleRate = audio.sampleRate
        sampleCount = audio.samples.count
        self.timing = timing
        marks = audio.wordMarks
    }

    var timeline: PageTimeline {
        PageTimeline.make(text: text, wordMarks: marks, sampleRate: sampleRate, sampleCount: sampleCount, timing: timing)
    }

    /// WebVTT cues a sentence each (longer ones cut between words), with word timestamps where
    /// the engine times words.
    var webVTT: String {
        let cues = SubtitleCueBuilder.cues(text: text, wordMarks: marks, sampleRate: sampleRate, totalSamples: sampleCount)
        return SubtitleFormatter.webVTT(cues, wordTimings: timing == .words)
    }

    /// Reads a record; `nil` when the file is missing or not a record (it is then made again).
    static func read(_ path: String) -> PageTimingRecord? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(PageTimingRecord.self, from: data)
    }

    /// Writes the record under a temporary name renamed into place (its folder made if need be).
    func write(to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try writeFileAtomically(Array(try JSONEncoder().encode(self)), to: path)
    }
}
