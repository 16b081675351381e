@testable import NarrateData
import NarrateDomain
import Testing

@Suite struct FFMetadataTests {
    @Test("=, ;, #, backslash and line breaks are escaped with a backslash")
    func escaping() {
        // Given
        let value = "a=b; #1 \\ two\nlines\r\nend"

        // When
        let escaped = FFMetadata.escape(value)

        // Then
        #expect(escaped == "a\\=b\\; \\#1 \\\\ two\\\nlines\\\nend")
    }

    @Test("chapters end where the next starts and the last at the end of the audio, in samples")
    func chapters() {
        // Given
        let metadata = AudioFileMetadata(
            title: "T", artist: "A", album: "B", trackNumber: 1, trackCount: 1,
            chapters: [.init(title: "Two", startSample: 300), .init(title: "One", startSample: 0), .init(title: "Past the end", startSample: 900)]
        )

        // When
        let document = FFMetadata.document(for: metadata, sampleRate: 22_050, totalSamples: 900)

        // Then
        #expect(document == """
            ;FFMETADATA1
            title=T
            artist=A
            album=B
            track=1/1
            [CHAPTER]
            TIMEBASE=1/22050
            START=0
            END=300
            title=One
            [CHAPTER]
            TIMEBASE=1/22050
            START=300
            END=900
            title=Two

            """)
    }
}
