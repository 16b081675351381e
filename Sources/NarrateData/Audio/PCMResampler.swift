import Glibc

/// Converts 16-bit PCM from one sample rate to another, streaming, in this process: a
/// polyphase windowed-sinc filter (32 taps, Kaiser window β 8, cut off at 95% of the lower
/// Nyquist frequency) at the exact rational ratio (22,050 → 24,000 Hz is 160/147). The same
/// input always gives the same samples, however it is cut into pieces.
public struct PCMResampler: Sendable {
    public let inputRate: Int
    public let outputRate: Int
    private let up: Int
    private let down: Int
    private static let halfWidth = 16
    private static let taps = 2 * halfWidth
    /// `up` phases of `taps` coefficients each.
    private let table: [Double]
    /// Input not yet used up; `start` is the absolute index of its first sample.
    private var history: [Int16] = []
    private var start = 0
    private var received = 0
    private var produced = 0

    public init(from inputRate: Int, to outputRate: Int) {
        precondition(inputRate > 0 && outputRate > 0)
        self.inputRate = inputRate
        self.outputRate = outputRate
        let divisor = Self.gcd(inputRate, outputRate)
        up = outputRate / divisor
        down = inputRate / divisor
        // Cut-off relative to the input's Nyquist frequency: below the lower of the two.
        let cutoff = 0.95 * min(1.0, Double(outputRate) / Double(inputRate))
        var table = [Double](repeating: 0, count: up * Self.taps)
        for phase in 0..<up {
            let fraction = Double(phase) / Double(up)
            var sum = 0.0
            for tap in 0..<Self.taps {
                let x = Double(tap - Self.halfWidth + 1) - fraction
                let value = cutoff * Self.sinc(cutoff * x) * Self.kaiser(x / Double(Self.halfWidth), beta: 8)
                table[phase * Self.taps + tap] = value
                sum += value
            }
            // Unit gain at DC in every phase: no ripple from phase to phase.
            for tap in 0..<Self.taps { table[phase * Self.taps + tap] /= sum }
        }
        self.table = table
    }

    /// The output samples `samples` complete (the filter needs a few samples ahead).
    public mutating func process(_ samples: [Int16]) -> [Int16] {
        history += samples
        received += samples.count
        return produce(until: Int.max)
    }

    /// The rest: the input's end, as if followed by silence.
    public mutating func finish() -> [Int16] {
        history += [Int16](repeating: 0, count: Self.halfWidth + 1)
        let total = (received * up + down - 1) / down
        return produce(until: total)
    }

    private mutating func produce(until total: Int) -> [Int16] {
        var output: [Int16] = []
        let available = start + history.count
        while produced < total {
            let position = produced * down
            let base = position / up
            let phase = position % up
            let first = base - Self.halfWidth + 1
            guard first + Self.taps <= available else { break }
            var sum = 0.0
            let row = phase * Self.taps
            for tap in 0..<Self.taps {
                let index = first + tap
                if index >= start { sum += Double(history[index - start]) * table[row + tap] }
            }
            output.append(Int16(clamping: Int(sum.rounded())))
            produced += 1
        }
        let keepFrom = (produced * down) / up - Self.halfWidth + 1
        if keepFrom > start {
            history.removeFirst(min(history.count, keepFrom - start))
            start = keepFrom
        }
        return output
    }

    private static func sinc(_ x: Double) -> Double {
        x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
    }

    private static func kaiser(_ t: Double, beta: Double) -> Double {
        guard abs(t) <= 1 else { return 0 }
        return besselI0(beta * (1 - t * t).squareRoot()) / besselI0(beta)
    }

    /// The modified Bessel function of the first kind, order 0 (its power series).
    private static func besselI0(_ x: Double) -> Double {
        var sum = 1.0
        var term = 1.0
        let half = x / 2
        for k in 1..<32 {
            term *= (half / Double(k)) * (half / Double(k))
            sum += term
            if term < 1e-12 * sum { break }
        }
        return sum
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int {
        b == 0 ? a : gcd(b, a % b)
    }
}
