import ArgumentParser
import Foundation
import NarrateKit

/// `--cast FILE|auto`: the characters read their own quotations.
struct CastOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Read each character's quotations in a voice of its own: a cast file (JSON, as 'narrate cast BOOK -o FILE' writes it) or auto.",
            valueName: "FILE|auto"))
    var cast: String?

    /// The largest cast file read.
    static let maxFileBytes = 1 << 20

    /// What `--cast` asks for, the file read and checked; nil without it.
    func request() throws -> CastRequest? {
        guard let cast else { return nil }
        if cast == "auto" { return .auto }
        return .file(try Self.read(path: cast))
    }

    /// The cast `--cast` asks for, resolved for `narrator` reading `text`; nil without it.
    func resolve(
        in environment: NarrateEnvironment, narrator: VoiceChoice, voice: VoiceRequest, book: Book?, text: @autoclosure () -> String
    ) async throws -> VoiceCast? {
        guard let request = try request() else { return nil }
        return try await environment.resolveCast.execute(request, narrator: narrator, voice: voice, reading: book, text: text())
    }

    static func read(path: String) throws -> CastFile {
        let attributes: [FileAttributeKey: Any]
        do { attributes = try FileManager.default.attributesOfItem(atPath: path) } catch {
            throw CLIMessage("The cast file \(path) cannot be read: it does not exist or is not readable. Write one with 'narrate cast BOOK -o \(path)', or say --cast auto.")
        }
        guard attributes[.type] as? FileAttributeType != .typeDirectory else {
            throw CLIMessage("The cast file \(path) is a folder; give the cast file's path.")
        }
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            data = try handle.read(upToCount: maxFileBytes + 1) ?? Data()
        } catch {
            throw CLIMessage("The cast file \(path) cannot be read: \(error.localizedDescription).")
        }
        guard data.count <= maxFileBytes else {
            throw CLIMessage("The cast file \(path) is larger than \(Format.bytes(Int64(maxFileBytes))); a cast file names voices, not a book.")
        }
        let file: CastFile
        do { file = try JSONDecoder().decode(CastFile.self, from: data) } catch {
            throw CLIMessage("The cast file \(path) is not a cast: \(Self.describe(error)). It is JSON with \"narrator\", \"dialogue\" and \"characters\": [{\"name\": …, \"voice\": …}].")
        }
        if let problem = file.problem { throw CLIMessage("The cast file \(path) is not a cast: \(problem).") }
        return file
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case let DecodingError.dataCorrupted(context): "it is not JSON (\(context.debugDescription))"
        case let DecodingError.keyNotFound(key, context): "\(path(context)) has no \"\(key.stringValue)\""
        case let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context): "\(path(context)): \(context.debugDescription)"
        default: "\(error)"
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return path.isEmpty ? "the file" : path
    }
}
