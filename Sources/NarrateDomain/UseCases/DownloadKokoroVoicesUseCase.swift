/// Installing Kokoro voices over HTTP(S) from a published layout.
public protocol DownloadKokoroVoicesUseCaseContract: Sendable {
    /// - Parameter progress: told as each file's bytes arrive.
    /// - Throws: `KokoroInstallError`; nothing is left under a final name, and what arrived of an
    ///   interrupted file is kept for the next run to resume.
    func execute(_ request: KokoroDownloadRequest, progress: @escaping @Sendable (VoiceDownloadProgress) -> Void) async throws(KokoroInstallError) -> KokoroInstallation
}

/// Finds the layout (kokoro-onnx's release: a model and one `.npz` of every voice; or
/// onnx-community's: `onnx/<model>` and `voices/<name>.bin`), downloads the model and packs into
/// the voice folder's `kokoro/.download/` (resumable, size-limited, the model's SHA-256 checked
/// when it is known), then installs from there as from a local folder and removes the staging
/// files.
public struct DownloadKokoroVoicesUseCase: DownloadKokoroVoicesUseCaseContract {
    private let downloads: any VoiceInstallRepositoryContract
    private let installer: any KokoroInstallRepositoryContract

    public init(downloads: any VoiceInstallRepositoryContract, installer: any KokoroInstallRepositoryContract) {
        self.downloads = downloads
        self.installer = installer
    }

    /// The largest pack archive fetched (kokoro-onnx's 54 voices take 28 MB) and one voice's pack.
    public static let maxArchiveBytes: Int64 = 512 << 20
    public static let maxPackBytes: Int64 = 1024 * 256 * 4

    public func execute(_ request: KokoroDownloadRequest, progress: @escaping @Sendable (VoiceDownloadProgress) -> Void) async throws(KokoroInstallError) -> KokoroInstallation {
        if let invalid = request.voices.first(where: { !KokoroBlend.isVoiceName($0) }) { throw .invalidVoiceName(invalid) }
        let base = request.url.hasSuffix("/") ? String(request.url.dropLast()) : request.url
        let files = try await files(base: base, request: request)
        let staging = request.directory + "/kokoro/.download"
        do { try downloads.prepare(directory: staging) } catch { throw .download(error) }
        for file in files {
            let fetched: VoiceFileFacts
            do { fetched = try await downloads.download(file, into: staging, progress: progress) } catch { throw .download(error) }
            if file.fileName.hasSuffix(".onnx"), let expected = request.sha256?.lowercased() ?? KokoroDownloadRequest.knownDigests[file.fileName], fetched.sha256 != expected {
                downloads.discard(fetched)
                throw .checksumMismatch(file: file.fileName, expected: expected, actual: fetched.sha256)
            }
            do { try downloads.moveIntoPlace(fetched, as: file.fileName, in: staging) } catch { throw .download(error) }
        }
        let installation = try InstallKokoroVoicesUseCase(repository: installer).execute(
            KokoroInstallRequest(source: staging, directory: request.directory, voices: request.voices, maxModelBytes: request.maxModelBytes)
        )
        for file in files {
            downloads.discard(VoiceFileFacts(path: staging + "/" + file.fileName, bytes: 0, md5: "", sha256: ""))
        }
        return installation
    }

    /// The files to fetch, from the layout the URL holds.
    private func files(base: String, request: KokoroDownloadRequest) async throws(KokoroInstallError) -> [VoiceDownloadFile] {
        if try await exists(base + "/voices-v1.0.bin") {
            let model = request.model ?? "kokoro-v1.0.onnx"
            return [
                VoiceDownloadFile(url: base + "/voices-v1.0.bin", fileName: "voices-v1.0.npz", maxBytes: Self.maxArchiveBytes),
                VoiceDownloadFile(url: base + "/" + model, fileName: Self.fileName(of: model), maxBytes: request.maxModelBytes),
            ]
        }
        let model = request.model ?? "onnx/model.onnx"
        guard try await exists(base + "/" + model) else { throw .unknownLayout(url: base) }
        guard !request.voices.isEmpty else { throw .voicesNotNamed(url: base) }
        let packs = request.voices.map { voice in
            VoiceDownloadFile(url: base + "/voices/" + voice + ".bin", fileName: voice + ".bin", maxBytes: Self.maxPackBytes)
        }
        return packs + [VoiceDownloadFile(url: base + "/" + model, fileName: Self.fileName(of: model), maxBytes: request.maxModelBytes)]
    }

    private func exists(_ url: String) async throws(KokoroInstallError) -> Bool {
        do {
            _ = try await downloads.remoteSize(of: url)
            return true
        } catch .notFound {
            return false
        } catch {
            throw .download(error)
        }
    }

    /// The last part of a path in the layout, as the file is named in the folder.
    private static func fileName(of path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }
}
