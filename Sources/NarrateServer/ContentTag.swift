import Crypto
import Foundation

/// A strong `ETag` for bytes served as they are (a cover, the listening room's files): the
/// first 128 bits of their SHA-256, quoted.
enum ContentTag {
    static func strong(_ bytes: [UInt8]) -> String {
        "\"" + SHA256.hash(data: bytes).prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
    }
}
