extension Duration {
    /// This duration in seconds, for metrics and log lines.
    public var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}
