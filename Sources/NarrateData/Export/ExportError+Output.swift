import NarrateDomain

extension ExportError {
    /// Runs `body`, which writes the file meant for `path`; a failed system call becomes
    /// `.outputFailed` naming `path`, with the cause the advice depends on.
    static func writing<T>(_ path: String, _ body: () throws(SystemCallError) -> T) throws(ExportError) -> T {
        do {
            return try body()
        } catch {
            throw .outputFailed(OutputError(path: path, error))
        }
    }
}
