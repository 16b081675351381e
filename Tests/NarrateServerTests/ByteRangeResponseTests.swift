import Testing
@testable import NarrateServer

@Suite("ByteRangeResponse")
struct ByteRangeResponseTests {
    @Test("Given the Range forms, when parsed against 1000 bytes, then each gives its inclusive bounds", arguments: [
        ("bytes=0-99", 0, 99), ("bytes=900-", 900, 999), ("bytes=-100", 900, 999), ("bytes=990-5000", 990, 999), ("bytes=-5000", 0, 999),
    ])
    func satisfiable(header: String, start: Int, end: Int) throws {
        let bounds = try #require(ByteRangeResponse.parse(header, length: 1_000))
        let (first, last) = try #require(bounds)
        #expect(first == start)
        #expect(last == end)
    }

    @Test("Given a range past the end, when parsed, then it is unsatisfiable (416)", arguments: ["bytes=1000-", "bytes=2000-3000", "bytes=-0"])
    func unsatisfiable(header: String) throws {
        let bounds = try #require(ByteRangeResponse.parse(header, length: 1_000))
        #expect(bounds == nil)
    }

    @Test("Given what is not one byte range, when parsed, then the whole file is served", arguments: ["items=0-1", "bytes=0-1,5-6", "bytes=a-b", "bytes=5-2", "bytes"])
    func ignored(header: String) {
        #expect(ByteRangeResponse.parse(header, length: 1_000) == nil)
    }
}
