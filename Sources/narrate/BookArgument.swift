import ArgumentParser

/// The book a command works on.
struct BookArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The book: a file, a library id, or a title prefix.", valueName: "book"))
    var reference: String
}
