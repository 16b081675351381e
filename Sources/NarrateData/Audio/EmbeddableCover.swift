import NarrateDomain

/// A cover image that both ID3 (APIC) and MP4 (`covr`) can carry: JPEG or PNG, checked by its
/// media type *and* its first bytes, so a mislabelled image is left out instead of failing a
/// whole book's export.
struct EmbeddableCover {
    enum Kind: String {
        case jpeg = "jpg"
        case png = "png"
    }

    let kind: Kind
    let data: [UInt8]

    /// `nil` for GIF, WebP, SVG, … and for data that is not what its media type says.
    init?(_ cover: BookCover?) {
        guard let cover else { return nil }
        let bytes = cover.data
        switch cover.mediaType.lowercased() {
        case "image/jpeg", "image/jpg":
            guard bytes.count > 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
            kind = .jpeg
        case "image/png":
            guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
            kind = .png
        default:
            return nil
        }
        data = bytes
    }

    /// The file name extension ffmpeg recognizes the image by.
    var fileExtension: String { kind.rawValue }
}
