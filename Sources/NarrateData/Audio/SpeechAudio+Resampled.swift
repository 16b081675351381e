import NarrateDomain

extension SpeechAudio {
    /// The same speech at `rate` (`PCMResampler`), word marks moved to the new sample positions;
    /// itself when it is already at that rate.
    public func resampled(to rate: Int) -> SpeechAudio {
        guard rate > 0, sampleRate > 0, rate != sampleRate else { return self }
        var resampler = PCMResampler(from: sampleRate, to: rate)
        let samples = resampler.process(samples) + resampler.finish()
        let ratio = Double(rate) / Double(sampleRate)
        let marks = wordMarks.map { mark in
            WordMark(textOffset: mark.textOffset, textLength: mark.textLength, sampleOffset: Int((Double(mark.sampleOffset) * ratio).rounded()))
        }
        return SpeechAudio(sampleRate: rate, samples: samples, wordMarks: marks)
    }
}
