import Foundation
import Glibc
import NarrateDomain
import Synchronization

/// The Kokoro voices installed in voice folders: in a folder's `kokoro/`, one model (`*.onnx`,
/// with an optional `vocab.json`) and a raw style pack per voice in `kokoro/voices/<name>.bin`.
/// Models and packs are hashed once per process, and again only when their file changes.
public final class KokoroVoiceCatalog: Sendable {
    private let directories: [String]
    private let models = Mutex<[String: (stamp: [Int], model: KokoroModel)]>([:])
    private let packs = Mutex<[String: (stamp: [Int], digest: String)]>([:])

    /// The folder below a voice folder that holds its Kokoro voices.
    public static let folderName = "kokoro"

    /// - Parameter directories: voice folders, earlier ones first.
    public init(directories: [String]) {
        self.directories = directories
    }

    /// One voice folder's Kokoro model and packs, when it has both.
    struct Installation {
        var folder: String
        var model: String
        var packs: [String: String]  // path by lowercased name
        var names: [String: String]  // name as installed by lowercased name
    }

    func installations() -> [Installation] {
        directories.compactMap { directory in
            let folder = directory + "/" + Self.folderName
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder),
                  let model = files.sorted().first(where: { $0.hasSuffix(".onnx") }),
                  let packFiles = try? FileManager.default.contentsOfDirectory(atPath: folder + "/voices")
            else { return nil }
            var packs: [String: String] = [:]
            var names: [String: String] = [:]
            for file in packFiles.sorted() where file.hasSuffix(".bin") {
                let name = String(file.dropLast(4))
                guard KokoroBlend.isVoiceName(name), packs[name.lowercased()] == nil else { continue }
                packs[name.lowercased()] = folder + "/voices/" + file
                names[name.lowercased()] = name
            }
            return packs.isEmpty ? nil : Installation(folder: folder, model: folder + "/" + model, packs: packs, names: names)
        }
    }

    /// Every installed voice, by name; a name in an earlier folder hides a later one's.
    public func installed() -> [Voice] {
        var byName: [String: Voice] = [:]
        for installation in installations().reversed() {
            for (key, pack) in installation.packs {
                let name = installation.names[key] ?? key
                guard let language = KokoroLanguage.of(voice: name) else { continue }
                let settings = KokoroVoiceSettings(model: installation.model, styles: [.init(name: name, pack: pack, weight: 1)], language: language.espeakLanguage)
                byName[key] = Voice(
                    name: name, identifier: pack, languages: language.tag.lowercased() == language.espeakLanguage ? [language.espeakLanguage] : [language.espeakLanguage, language.tag.lowercased()], gender: KokoroLanguage.gender(of: name),
                    preset: VoiceProfile(voice: language.espeakLanguage, kokoro: settings),
                    kokoro: KokoroVoiceInfo(model: installation.model, pack: pack, language: language.tag)
                )
            }
        }
        return byName.values.sorted { $0.name.lowercased() < $1.name.lowercased() }
    }

    /// The profile for a Kokoro voice or blend (`af_heart`, `af_heart:0.6+bf_emma:0.4`,
    /// `af_heart(3)+bf_emma(2)`); `nil` when the name is not a Kokoro voice's shape, or names
    /// one voice that is not installed (another engine may have it).
    /// - Throws: `SpeechError.voiceFailed` for a blend with bad weights or across models,
    ///   `.voiceNotFound` for a blend naming a voice that is not installed.
    public func profile(named name: String) throws(SpeechError) -> VoiceProfile? {
        let blend: KokoroBlend
        do {
            guard let parsed = try KokoroBlend.parse(name) else { return nil }
            blend = parsed
        } catch {
            throw .voiceFailed(voice: error.name, reason: error.reason)
        }
        let installations = installations()
        var found: [(installation: Installation, pack: String, name: String)] = []
        for part in blend.parts {
            let key = part.name.lowercased()
            guard let installation = installations.first(where: { $0.packs[key] != nil }), let pack = installation.packs[key] else {
                guard blend.isBlend else { return nil }
                let known = installations.flatMap { $0.names.values }
                throw .voiceNotFound(part.name, suggestions: NameSuggester.suggestions(for: part.name, among: known))
            }
            found.append((installation, pack, installation.names[key] ?? part.name))
        }
        let models = Set(found.map(\.installation.model))
        guard models.count == 1, let model = models.first else {
            throw .voiceFailed(voice: name, reason: "its voices are installed with different Kokoro models (\(models.sorted().joined(separator: ", "))); a blend mixes one model's voices")
        }
        guard let language = KokoroLanguage.of(voice: found[0].name) else {
            throw .voiceFailed(voice: name, reason: "'\(found[0].name)' does not start with one of Kokoro's language letters (\(KokoroLanguage.all.map { String($0.code) }.joined(separator: " ")))")
        }
        let styles = zip(blend.parts, found).map { part, match in KokoroVoiceSettings.Style(name: match.name, pack: match.pack, weight: part.weight) }
        return VoiceProfile(voice: language.espeakLanguage, kokoro: KokoroVoiceSettings(model: model, styles: styles, language: language.espeakLanguage))
    }

    /// The model, loaded (hashed, vocabulary read) once per change.
    public func model(at path: String) throws(SpeechError) -> KokoroModel {
        guard !path.isEmpty else {
            throw .voiceFailed(voice: "Kokoro", reason: "no Kokoro voice of that name is installed; install them with narrate voices install kokoro --from DIR")
        }
        let stamp = FileStamp.of(path)
        if let known = models.withLock({ $0[path] }), known.stamp == stamp { return known.model }
        let model: KokoroModel
        do { model = try KokoroModel.load(path: path) } catch { throw .voiceFailed(voice: Self.name(model: path), reason: error.reason) }
        models.withLock { $0[path] = (stamp, model) }
        return model
    }

    /// The packs of a voice, each hashed once per change.
    func packs(of settings: KokoroVoiceSettings) throws(SpeechError) -> [KokoroModel.Pack] {
        var result: [KokoroModel.Pack] = []
        for style in settings.styles {
            let stamp = FileStamp.of(style.pack)
            if let known = packs.withLock({ $0[style.pack] }), known.stamp == stamp {
                result.append(KokoroModel.Pack(name: style.name, path: style.pack, digest: known.digest, weight: style.weight))
                continue
            }
            let digest: String
            do { digest = try FileDigest.sha256(of: style.pack, maxBytes: Int64(KokoroStylePack.maxPackBytes), what: "its style pack") } catch {
                throw .voiceFailed(voice: settings.name, reason: error.reason)
            }
            packs.withLock { $0[style.pack] = (stamp, digest) }
            result.append(KokoroModel.Pack(name: style.name, path: style.pack, digest: digest, weight: style.weight))
        }
        return result
    }

    static func name(model: String) -> String {
        let file = (model as NSString).lastPathComponent
        return file.hasSuffix(".onnx") ? String(file.dropLast(5)) : file
    }
}
