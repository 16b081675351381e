import Crypto
import Foundation

/// A fleet's shared key, and the seal it puts on each object in the store: HMAC-SHA-256 over
/// the object's key and bytes. With a key, a machine uploads every object with its seal and
/// takes only objects whose seal is right, so someone who can write the bucket but does not
/// hold the key cannot make the fleet serve audio of theirs.
public struct CacheStoreSeal: Sendable, Equatable {
    private let key: [UInt8]

    /// How long a key may be, in bytes.
    public static let keyLengths = 16...4096
    /// The environment variable that names the key file.
    public static let environmentName = "NARRATE_CACHE_STORE_KEY_FILE"

    public init?(key bytes: [UInt8]) {
        guard Self.keyLengths.contains(bytes.count) else { return nil }
        key = bytes
    }

    /// The key in `text`, a key file's content without surrounding white space (`openssl rand
    /// -hex 32` writes one).
    /// - Throws: `CacheStoreError.badSetting` naming the file and what is wrong.
    public static func from(file path: String, text: String?) throws(CacheStoreError) -> CacheStoreSeal {
        guard let text else {
            throw .badSetting("The fleet key file \(path) (\(environmentName)) cannot be read.")
        }
        guard let seal = CacheStoreSeal(key: Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)) else {
            throw .badSetting("The fleet key in \(path) (\(environmentName)) must be \(keyLengths.lowerBound) to \(keyLengths.upperBound) bytes; make one with: openssl rand -hex 32 > \(path)")
        }
        return seal
    }

    /// The seal of the object `hex` holding `bytes`, as 64 lowercase hex digits.
    public func seal(hex: String, bytes: UnsafeRawBufferPointer) -> String {
        var mac = HMAC<SHA256>(key: SymmetricKey(data: key))
        mac.update(data: Array("narrate-cache-store-seal-1\n\(hex)\n".utf8))
        mac.update(data: bytes)
        return mac.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// Whether `seal` is the seal of the object `hex` holding `bytes` (compared in constant time).
    public func verifies(_ seal: String?, hex: String, bytes: UnsafeRawBufferPointer) -> Bool {
        guard let seal, seal.utf8.count == 64 else { return false }
        let expected = Array(self.seal(hex: hex, bytes: bytes).utf8)
        return zip(expected, Array(seal.lowercased().utf8)).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
