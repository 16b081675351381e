import ArgumentParser

extension Narrate {
    /// `narrate bookmarks`: list a book's bookmarks (the default), add or remove one.
    struct Bookmarks: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a book's bookmarks (the listening room's too), or add or remove one.",
            discussion: """
                Bookmarks are kept in the library with the reading progress, which they never move: \
                'narrate next' goes on from where you stopped, and 'narrate page BOOK PAGE' reads a \
                bookmarked page.
                """,
            subcommands: [BookmarksList.self, BookmarksAdd.self, BookmarksRemove.self],
            defaultSubcommand: BookmarksList.self
        )
    }
}
