import NarrateKit

/// The voice and the speech path of one command.
struct Speech {
    var voice: VoiceProfile
    var repository: any TTSRepositoryContract
}
