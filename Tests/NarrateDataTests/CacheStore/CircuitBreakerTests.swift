import Testing

@testable import NarrateData

@Suite("Circuit breaker for the cache store")
struct CircuitBreakerTests {
    @Test("A failure opens it for the pause, which doubles with each failure in a row up to the ceiling")
    func pausesDouble() {
        // Given
        var sut = CircuitBreaker(firstPause: .seconds(15), longestPause: .seconds(60))
        let start = ContinuousClock.now
        #expect(sut.allows(at: start))

        // When
        let first = sut.recordFailure(at: start)
        let closedDuring = sut.allows(at: start + .seconds(14))
        let late = sut.recordFailure(at: start + .seconds(1))  // a request begun before it opened
        let openAfter = sut.allows(at: start + .seconds(15))
        let second = sut.recordFailure(at: start + .seconds(15))
        let third = sut.recordFailure(at: start + .seconds(45))
        let fourth = sut.recordFailure(at: start + .seconds(105))

        // Then
        #expect(first == .seconds(15))
        #expect(!closedDuring)
        #expect(late == nil)
        #expect(openAfter)
        #expect(second == .seconds(30))
        #expect(third == .seconds(60))
        #expect(fourth == .seconds(60))
    }

    @Test("An answer closes it and the pause starts over")
    func successCloses() {
        // Given
        var sut = CircuitBreaker(firstPause: .seconds(15), longestPause: .seconds(60))
        let start = ContinuousClock.now
        _ = sut.recordFailure(at: start)
        _ = sut.recordFailure(at: start + .seconds(15))

        // When
        let wasOpen = sut.recordSuccess()
        let allows = sut.allows(at: start + .seconds(16))
        let wasOpenAgain = sut.recordSuccess()
        let next = sut.recordFailure(at: start + .seconds(20))

        // Then
        #expect(wasOpen)
        #expect(allows)
        #expect(!wasOpenAgain)
        #expect(next == .seconds(15))
    }
}
