/// Times in media overlays, counted in whole milliseconds so that sums are exact.
public enum SMILClock {
    /// Seconds to milliseconds, to the nearest.
    public static func milliseconds(_ seconds: Double) -> Int {
        Int((max(seconds, 0) * 1000).rounded())
    }

    /// A clip time: `12.345s`.
    public static func clipValue(_ milliseconds: Int) -> String {
        "\(milliseconds / 1000).\(padded(milliseconds % 1000, 3))s"
    }

    /// A full clock value, as `media:duration` wants: `0:01:02.345`.
    public static func clockValue(_ milliseconds: Int) -> String {
        let seconds = milliseconds / 1000
        return "\(seconds / 3600):\(padded(seconds / 60 % 60, 2)):\(padded(seconds % 60, 2)).\(padded(milliseconds % 1000, 3))"
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
