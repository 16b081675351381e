import Crypto
import Foundation
import NarrateDomain

/// Installs Kokoro voices from a local folder (the air-gapped way, and the tests'): the model
/// copied to a voice folder's `kokoro/`, each voice's style row pack written as
/// `kokoro/voices/<name>.bin` (raw float32), the vocabulary file copied when there is one.
public struct KokoroVoiceInstaller: KokoroInstallRepositoryContract {
    public init() {}

    /// The folder's files, checked: one model, and the voices its packs hold (by name, with
    /// their rows).
    struct Contents {
        var model: String
        var vocabulary: String?
        var voices: [(name: String, data: Data)]
    }

    public func read(_ request: KokoroInstallRequest) throws(KokoroInstallError) -> KokoroInstallSource {
        let contents = try contents(of: request.source, maxModelBytes: request.maxModelBytes)
        return KokoroInstallSource(folder: request.source, model: contents.model, voices: contents.voices.map(\.name))
    }

    func contents(of folder: String, maxModelBytes: Int64) throws(KokoroInstallError) -> Contents {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue,
              let files = try? FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        else { throw .unreadableSource(folder) }
        let models = files.filter { $0.hasSuffix(".onnx") && !$0.hasPrefix(".") }
        guard let model = models.first else { throw .noModel(folder: folder) }
        guard models.count == 1 else { throw .severalModels(folder: folder, models: models) }
        let modelPath = folder + "/" + model
        let size = (try? FileManager.default.attributesOfItem(atPath: modelPath)[.size] as? Int64) ?? nil
        guard let size, size > 0 else { throw .invalidFile(path: modelPath, reason: "it is empty or cannot be read") }
        guard size <= maxModelBytes else { throw .invalidFile(path: modelPath, reason: "it is larger than --max-size (\(maxModelBytes >> 20) MiB)") }
        var vocabulary: String?
        for file in ["vocab.json", "config.json"] where files.contains(file) {
            let path = folder + "/" + file
            guard let data = FileManager.default.contents(atPath: path) else { throw .invalidFile(path: path, reason: "it cannot be read") }
            do { _ = try KokoroVocabulary.parse(data) } catch { throw .invalidFile(path: path, reason: error.reason) }
            vocabulary = path
            break
        }
        var voices: [(name: String, data: Data)] = []
        var seen: Set<String> = []
        for file in files where !file.hasPrefix(".") && (file.hasSuffix(".npz") || file.hasSuffix(".bin")) {
            let path = folder + "/" + file
            let found: [(name: String, data: Data)]
            do throws(KokoroVoiceProblem) {
                found = Self.isArchive(path) ? try KokoroStylePack.voices(inArchive: path) : [(String(file.dropLast(4)), try Self.rawPack(path))]
            } catch {
                throw .invalidFile(path: path, reason: error.reason)
            }
            for voice in found where KokoroBlend.isVoiceName(voice.name) && seen.insert(voice.name.lowercased()).inserted {
                voices.append(voice)
            }
        }
        guard !voices.isEmpty else { throw .noVoices(folder: folder) }
        return Contents(model: modelPath, vocabulary: vocabulary, voices: voices.sorted { $0.name < $1.name })
    }

    public func write(_ source: KokoroInstallSource, voices: [String], into directory: String) throws(KokoroInstallError) -> KokoroInstallation {
        let contents = try contents(of: source.folder, maxModelBytes: Int64.max)
        let folder = directory + "/" + KokoroVoiceCatalog.folderName
        do {
            try FileManager.default.createDirectory(atPath: folder + "/voices", withIntermediateDirectories: true)
        } catch {
            throw .writeFailed(path: folder, reason: "\(error.localizedDescription)")
        }
        let modelName = (contents.model as NSString).lastPathComponent
        let modelDigest = try Self.digest(contents.model)
        let installed = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".onnx") && !$0.hasPrefix(".") }
        var modelWasInstalled = false
        if let other = installed.first {
            guard installed.count == 1, other == modelName, try Self.digest(folder + "/" + other) == modelDigest else {
                throw .otherModelInstalled(installed: installed.joined(separator: ", "), folder: folder)
            }
            modelWasInstalled = true
        } else {
            try Self.copy(contents.model, to: folder + "/" + modelName)
        }
        if let vocabulary = contents.vocabulary {
            try Self.copy(vocabulary, to: folder + "/vocab.json")
        }
        let wanted = Set(voices.map { $0.lowercased() })
        var written: [String] = []
        for voice in contents.voices where wanted.contains(voice.name.lowercased()) {
            try Self.write(voice.data, to: folder + "/voices/" + voice.name + ".bin")
            written.append(voice.name)
        }
        return KokoroInstallation(folder: folder, model: modelName, modelSHA256: modelDigest, modelWasInstalled: modelWasInstalled, voices: written)
    }

    // MARK: - Files

    /// Whether the file is a zip (an `.npz`, whatever its name says).
    private static func isArchive(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 4)) == Data([0x50, 0x4B, 0x03, 0x04])
    }

    private static func rawPack(_ path: String) throws(KokoroVoiceProblem) -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw KokoroVoiceProblem("it cannot be read") }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: KokoroStylePack.maxPackBytes + 1)) ?? Data()
        return try KokoroStylePack.rows(ofRaw: data, name: (path as NSString).lastPathComponent)
    }

    private static func digest(_ path: String) throws(KokoroInstallError) -> String {
        do { return try FileDigest.sha256(of: path, maxBytes: Int64.max, what: "the file") } catch { throw .invalidFile(path: path, reason: error.reason) }
    }

    /// Copies under a temporary name in the destination's folder, then renames into place.
    private static func copy(_ source: String, to destination: String) throws(KokoroInstallError) {
        let temporary = temporaryName(for: destination)
        do {
            try? FileManager.default.removeItem(atPath: temporary)
            // A link's target, not the link: the voice folder holds the files themselves.
            try FileManager.default.copyItem(atPath: (source as NSString).resolvingSymlinksInPath, toPath: temporary)
            try rename(temporary, to: destination)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw .writeFailed(path: destination, reason: "\(error.localizedDescription)")
        }
    }

    private static func write(_ data: Data, to destination: String) throws(KokoroInstallError) {
        let temporary = temporaryName(for: destination)
        do {
            try data.write(to: URL(fileURLWithPath: temporary))
            try rename(temporary, to: destination)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw .writeFailed(path: destination, reason: "\(error.localizedDescription)")
        }
    }

    private static func temporaryName(for path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder + "/." + (path as NSString).lastPathComponent + ".\(ProcessInfo.processInfo.processIdentifier).tmp"
    }

    private static func rename(_ from: String, to: String) throws {
        guard Foundation.rename(from, to) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(errno))]) }
    }
}
