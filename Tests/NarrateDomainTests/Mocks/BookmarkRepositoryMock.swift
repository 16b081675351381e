import struct Foundation.Date
import NarrateDomain
import Synchronization

/// A `BookmarkRepositoryContract` answering every call from its own result (failures by
/// default), recording every call's arguments.
final class BookmarkRepositoryMock: BookmarkRepositoryContract {
    private static func unset(_ name: String) -> BookError {
        .libraryFailed(reason: "BookmarkRepositoryMock.\(name) is not set")
    }

    /// The arguments of one `addBookmark` call.
    struct AddCall: Equatable {
        var bookID: BookID
        var pageIndex: Int
        var textOffset: Int
        var note: String?
        var createdAt: Date
    }

    /// The arguments of one `removeBookmark` call.
    struct RemoveCall: Equatable {
        var id: BookmarkID
        var bookID: BookID
    }

    private struct State {
        var getBookmarksResult: Result<[Bookmark], BookError> = .failure(unset("getBookmarksResult"))
        var addBookmarkResult: Result<Bookmark, BookError> = .failure(unset("addBookmarkResult"))
        var removeBookmarkResult: Result<Bookmark?, BookError> = .failure(unset("removeBookmarkResult"))
        var listedBooks: [BookID] = []
        var addCalls: [AddCall] = []
        var removeCalls: [RemoveCall] = []
    }

    private let state = Mutex(State())

    var getBookmarksResult: Result<[Bookmark], BookError> {
        get { state.withLock { $0.getBookmarksResult } }
        set { state.withLock { $0.getBookmarksResult = newValue } }
    }

    var addBookmarkResult: Result<Bookmark, BookError> {
        get { state.withLock { $0.addBookmarkResult } }
        set { state.withLock { $0.addBookmarkResult = newValue } }
    }

    var removeBookmarkResult: Result<Bookmark?, BookError> {
        get { state.withLock { $0.removeBookmarkResult } }
        set { state.withLock { $0.removeBookmarkResult = newValue } }
    }

    var listedBooks: [BookID] { state.withLock { $0.listedBooks } }
    var addCalls: [AddCall] { state.withLock { $0.addCalls } }
    var removeCalls: [RemoveCall] { state.withLock { $0.removeCalls } }

    func getBookmarks(bookID: BookID) async throws(BookError) -> [Bookmark] {
        try state.withLock { state throws(BookError) in
            state.listedBooks.append(bookID)
            return try state.getBookmarksResult.get()
        }
    }

    func addBookmark(bookID: BookID, pageIndex: Int, textOffset: Int, note: String?, createdAt: Date) async throws(BookError) -> Bookmark {
        try state.withLock { state throws(BookError) in
            state.addCalls.append(AddCall(bookID: bookID, pageIndex: pageIndex, textOffset: textOffset, note: note, createdAt: createdAt))
            return try state.addBookmarkResult.get()
        }
    }

    func removeBookmark(id: BookmarkID, bookID: BookID) async throws(BookError) -> Bookmark? {
        try state.withLock { state throws(BookError) in
            state.removeCalls.append(RemoveCall(id: id, bookID: bookID))
            return try state.removeBookmarkResult.get()
        }
    }
}
