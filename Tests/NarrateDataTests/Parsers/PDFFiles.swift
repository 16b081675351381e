import Foundation

/// The small real PDFs of `Fixtures/pdf` (its README says how each was made), found from this
/// file's path.
enum PDFFiles {
    static func data(_ name: String, filePath: String = #filePath) throws -> Data {
        let url = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/pdf/\(name)")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        return data
    }
}
