import Foundation
import NarrateDomain

/// Where the `narrate-pdf` executable is: named by the caller, else `$NARRATE_PDF_READER`, else
/// beside the running program, else on `PATH` (as `ESpeakWorkerLocator` finds narrate-worker).
public enum PDFReaderLocator {
    public static let executableName = "narrate-pdf"

    public static func locate(explicit: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) -> Result<String, BookError> {
        if let explicit, !explicit.isEmpty {
            return ExecutableSearch.isExecutable(explicit) ? .success(explicit) : .failure(missing("\(explicit) is not an executable file"))
        }
        if let named = environment["NARRATE_PDF_READER"], !named.isEmpty {
            return ExecutableSearch.isExecutable(named) ? .success(named) : .failure(missing("NARRATE_PDF_READER names \(named), which is not an executable file"))
        }
        if let program = ExecutableSearch.runningProgram() {
            let beside = (program as NSString).deletingLastPathComponent + "/" + executableName
            if ExecutableSearch.isExecutable(beside) { return .success(beside) }
        }
        if let found = ExecutableSearch.locate(executableName, searchPath: environment["PATH"] ?? "") { return .success(found) }
        return .failure(missing("\(executableName) is neither beside this program nor on PATH"))
    }

    private static func missing(_ what: String) -> BookError {
        .readerUnavailable(format: .pdf, reason: "\(what). It is built with narrate (swift build); install it beside the program or on PATH, or set NARRATE_PDF_READER to its path")
    }
}
