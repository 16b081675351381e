import Foundation

/// The small real DOCX, ODT and FB2 files of `Fixtures/office` (pandoc's and LibreOffice's; its
/// README says how each was made), found from this file's path.
enum OfficeFiles {
    static let names = ["small.docx", "small-lo.docx", "small.odt", "small-lo.odt", "small.fb2", "small.fb2.zip"]

    static func data(_ name: String, filePath: String = #filePath) throws -> Data {
        let url = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/office/\(name)")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        return data
    }
}
