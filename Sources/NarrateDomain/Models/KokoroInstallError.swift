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
        }
    }
}
