import Foundation
import Testing
@testable import NarrateData

@Suite("PCMResampler")
struct PCMResamplerTests {
    private func sine(_ frequency: Double, rate: Int, count: Int, amplitude: Double = 10_000) -> [Int16] {
        (0..<count).map { Int16((amplitude * sin(2 * Double.pi * frequency * Double($0) / Double(rate))).rounded()) }
    }

    @Test("Given one second at 22,050 Hz, when resampled to 24,000 Hz, then it is 24,000 samples")
    func length() {
        var resampler = PCMResampler(from: 22_050, to: 24_000)
        let output = resampler.process(sine(440, rate: 22_050, count: 22_050)) + resampler.finish()
        #expect(output.count == 24_000)
    }

    @Test("Given a 440 Hz tone, when resampled, then it is the same tone at the new rate")
    func toneIsKept() {
        var resampler = PCMResampler(from: 22_050, to: 24_000)
        let output = resampler.process(sine(440, rate: 22_050, count: 22_050)) + resampler.finish()
        let expected = sine(440, rate: 24_000, count: 24_000)
        // Away from the edges (where the input starts and stops), within 0.5% of full scale.
        let middle = 100..<23_900
        let worst = middle.map { abs(Int(output[$0]) - Int(expected[$0])) }.max() ?? 0
        #expect(worst < 50, "largest difference \(worst)")
    }

    @Test("Given the same audio cut into pieces of any size, when resampled, then the samples are the same as whole")
    func piecesGiveTheSameSamples() {
        let input = sine(1_234, rate: 22_050, count: 10_000)
        var whole = PCMResampler(from: 22_050, to: 24_000)
        let expected = whole.process(input) + whole.finish()
        var pieces = PCMResampler(from: 22_050, to: 24_000)
        var output: [Int16] = []
        var index = 0
        for size in [1, 7, 100, 3, 2_000, 5_000, 889] where index < input.count {
            let end = min(input.count, index + size)
            output += pieces.process(Array(input[index..<end]))
            index = end
        }
        output += pieces.process(Array(input[index...])) + pieces.finish()
        #expect(output == expected)
    }

    @Test("Given full-scale input, when resampled, then samples are clamped, never wrapped")
    func clamps() {
        var resampler = PCMResampler(from: 22_050, to: 24_000)
        let square = (0..<2_000).map { $0 / 20 % 2 == 0 ? Int16.max : Int16.min }
        let output = resampler.process(square) + resampler.finish()
        #expect(output.count == (2_000 * 160 + 146) / 147)
        // The filter overshoots at each edge (Gibbs): clamped to the extremes, and a plateau's
        // middle keeps its sign (a wrapped sample would flip it).
        #expect(output.max() == Int16.max)
        #expect(output.min() == Int16.min)
        #expect(output[11] > 30_000)   // input sample 10: the middle of the first high plateau
        #expect(output[33] < -30_000)  // input sample 30: the middle of the first low one
    }
}
