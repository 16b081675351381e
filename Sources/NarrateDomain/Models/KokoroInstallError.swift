/// Failures of installing Kokoro voices from a folder. Each says what happened and what to do;
/// nothing is left under a final file name.
public enum KokoroInstallError: Error, Sendable, Equatable {
    /// The folder cannot be read.
    case unreadableSource(String)
    /// The folder holds no model, or more than one.
    case noModel(folder: String)
    case severalModels(folder: String, models: [String])
    /// The folder holds no style pack (or none named as a Kokoro voice).
    case noVoices(folder: String)
    /// Voices asked for that no pack holds.
    case unknownVoices([String], available: [String])
    /// A model or pack that is not what it should be (too large, damaged, wrong shape).
    case invalidFile(path: String, reason: String)
    /// The voice folder holds another Kokoro model already.
    case otherModelInstalled(installed: String, folder: String)
    /// A file or folder could not be written.
    case writeFailed(path: String, reason: String)
    /// A voice name that could not be a Kokoro voice's (nor a file name).
    case invalidVoiceName(String)
    /// The URL holds neither published layout.
    case unknownLayout(url: String)
    /// onnx-community's layout lists no voices: they must be named.
    case voicesNotNamed(url: String)
    /// The downloaded model is not the published one.
    case checksumMismatch(file: String, expected: String, actual: String)
    /// Fetching a file failed (what arrived is kept for the next run to resume).
    case download(VoiceInstallError)
}

extension KokoroInstallError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .unreadableSource(folder):
            "\(folder) is not a folder that can be read. Give the folder holding the Kokoro model (*.onnx) and its style packs (*.npz, *.bin)."
        case let .noModel(folder):
            "\(folder) holds no Kokoro model (*.onnx). Put the model there (for example kokoro-v1.0.int8.onnx) with its style packs."
        case let .severalModels(folder, models):
            "\(folder) holds several models (\(models.joined(separator: ", "))). Keep the one to install in the folder, or give a folder holding one."
        case let .noVoices(folder):
            "\(folder) holds no style pack: an .npz of voices (voices-v1.0.bin, voices_ja.npz) or a raw <voice>.bin per voice, named like af_heart."
        case let .unknownVoices(names, available):
            "No style pack holds \(names.joined(separator: ", ")). The packs hold: \(available.joined(separator: ", "))."
        case let .invalidFile(path, reason):
            "\(path) cannot be installed: \(reason). Nothing was installed."
        case let .otherModelInstalled(installed, folder):
            "\(folder) holds another Kokoro model already (\(installed)). Remove that folder first, or install into another voice folder with --to."
        case let .writeFailed(path, reason):
            "\(path) could not be written (\(reason)); nothing was installed under its final name. Free some space or choose another folder with --to."
        case let .invalidVoiceName(name):
            "'\(name)' is not a Kokoro voice name (a language letter, a gender letter, '_', a name: af_heart)."
        case let .unknownLayout(url):
            "\(url) holds neither kokoro-onnx's files (voices-v1.0.bin) nor onnx-community's (onnx/model.onnx). Give the folder URL of one of them, or --from a local folder."
        case let .voicesNotNamed(url):
            "\(url) has a file per voice and no list of them: name the voices to install (narrate voices install kokoro af_heart bf_emma --from URL)."
        case let .checksumMismatch(file, expected, actual):
            "The downloaded \(file) does not match its SHA-256 (expected \(expected), got \(actual)); it was deleted and nothing was installed. Try again; if it fails again, the published file is not the one expected."
        case let .download(error):
            error.description
        }
    }
}
