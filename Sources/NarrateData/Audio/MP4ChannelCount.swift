import Glibc
import NarrateDomain

/// Sets the channel count of every `mp4a` sample entry of an MP4 file, in place.
///
/// ffmpeg 5.1 (Debian 12's) writes 2 there for AAC in MP4 whatever the stream holds; the
/// stream's own configuration (`esds`) says mono, which is what ffprobe reads, but mutagen,
/// AtomicParsley and players that read the sample entry take a mono audiobook for stereo.
/// Only the boxes on the way (`moov/trak/mdia/minf/stbl/stsd`) are read, so a large file costs
/// a few small reads.
enum MP4ChannelCount {
    /// - Returns: how many sample entries were set.
    /// - Throws: `SystemCallError` when the file cannot be read or written.
    @discardableResult
    static func set(_ channels: UInt16, inFileAt path: String) throws(SystemCallError) -> Int {
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw .last("open", path) }
        defer { close(descriptor) }
        var end = stat()
        guard fstat(descriptor, &end) == 0 else { throw .last("fstat", path) }
        var patched = 0
        try walk(descriptor, from: 0, to: Int(end.st_size), depth: 0) { (offset: Int) throws(SystemCallError) in
            var value = channels.bigEndian
            guard pwrite(descriptor, &value, 2, off_t(offset + 24)) == 2 else { throw .last("pwrite", path) }
            patched += 1
        }
        return patched
    }

    private static let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl"]

    private static func walk(_ descriptor: Int32, from start: Int, to end: Int, depth: Int, found: (Int) throws(SystemCallError) -> Void) throws(SystemCallError) {
        guard depth < 8 else { return }
        var offset = start
        while offset + 8 <= end {
            var header = [UInt8](repeating: 0, count: 16)
            let count = pread(descriptor, &header, 16, off_t(offset))
            guard count >= 8 else { return }
            var size = Int(UInt32(header[0]) << 24 | UInt32(header[1]) << 16 | UInt32(header[2]) << 8 | UInt32(header[3]))
            let type = String(decoding: header[4..<8], as: UTF8.self)
            var body = offset + 8
            if size == 1, count == 16 {
                size = header[8..<16].reduce(0) { $0 << 8 | Int($1) }
                body = offset + 16
            } else if size == 0 {
                size = end - offset
            }
            guard size >= 8, offset + size <= end else { return }
            if containers.contains(type) {
                try walk(descriptor, from: body, to: offset + size, depth: depth + 1, found: found)
            } else if type == "stsd" {
                // A full box (version and flags), then the entry count, then the entries.
                try walk(descriptor, from: body + 8, to: offset + size, depth: depth + 1, found: found)
            } else if type == "mp4a", size >= 28 {
                try found(offset)
            }
            offset += size
        }
    }
}
