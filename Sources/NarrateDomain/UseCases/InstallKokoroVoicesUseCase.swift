/// Installing a Kokoro model and its voices from a local folder.
public protocol InstallKokoroVoicesUseCaseContract: Sendable {
    /// - Returns: what was installed (or found the same).
    /// - Throws: `KokoroInstallError`; nothing is then left under a final name.
    func execute(_ request: KokoroInstallRequest) throws(KokoroInstallError) -> KokoroInstallation
}

/// Reads the folder, picks the voices asked for (all when none is named; an unknown one is
/// refused before anything is written), and writes them with the model.
public struct InstallKokoroVoicesUseCase: InstallKokoroVoicesUseCaseContract {
    private let repository: any KokoroInstallRepositoryContract

    public init(repository: any KokoroInstallRepositoryContract) {
        self.repository = repository
    }

    public func execute(_ request: KokoroInstallRequest) throws(KokoroInstallError) -> KokoroInstallation {
        let source = try repository.read(request)
        let available = Dictionary(source.voices.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        let unknown = request.voices.filter { available[$0.lowercased()] == nil }
        guard unknown.isEmpty else { throw .unknownVoices(unknown, available: source.voices) }
        let chosen = request.voices.isEmpty ? source.voices : request.voices.compactMap { available[$0.lowercased()] }
        return try repository.write(source, voices: chosen, into: request.directory)
    }
}
