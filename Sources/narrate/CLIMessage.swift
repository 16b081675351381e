/// A failure the CLI itself detects, with its message.
struct CLIMessage: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
