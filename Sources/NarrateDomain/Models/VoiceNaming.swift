/// What a voice request may name. A remote client (the service's HTTP and Wyoming front ends)
/// names what the catalog lists; the machine's own user (the CLI, an embedding app that says
/// so) may also name a model file by its path.
public enum VoiceNaming: Sendable, Hashable {
    /// Presets, installed neural voices, eSpeak's voices and the names presets map: never a
    /// file, a path or anything else on the machine.
    case catalog
    /// The catalog, or a model file by path (`--voice path/to/model.onnx`): for the local user.
    case catalogOrFile
}
