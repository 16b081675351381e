import NarrateDomain
import Synchronization

/// The last few books read whole, each kept with the `book` row it was read with: a book is
/// served again from here while that row, progress aside, is unchanged in the database.
///
/// A book's chapters, pages and cover change only with its row (an update rewrites both in one
/// transaction, and a book is never given an id that was used before), so one small query
/// tells whether a kept book is still the library's. Reading progress is always the row's own.
/// A page route of the service reads its book on every request; for a long book that is a few
/// megabytes of pages and a cover, about 20 ms, against a fraction of a millisecond here.
final class BookMemo: Sendable {
    private struct Entry {
        var record: BookRecord
        var book: LibraryBook
        var lastUsed: UInt64
    }

    private struct State {
        var entries: [Int64: Entry] = [:]
        var uses: UInt64 = 0
    }

    /// How many books are kept (the least recently used goes first).
    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int = 4) {
        self.capacity = max(1, capacity)
    }

    /// The kept book with id `record.id`, when it was read with this row (progress aside); its
    /// progress is the row's.
    func book(for record: BookRecord) -> LibraryBook? {
        guard let id = record.id else { return nil }
        let key = Self.contents(record)
        return state.withLock { state -> LibraryBook? in
            guard var entry = state.entries[id], entry.record == key else { return nil }
            state.uses += 1
            entry.lastUsed = state.uses
            state.entries[id] = entry
            var book = entry.book
            book.progress = BookMapper.progress(record)
            return book
        }
    }

    /// Keeps `book`, read with `record`.
    func remember(_ book: LibraryBook, readWith record: BookRecord) {
        guard let id = record.id else { return }
        state.withLock { state in
            state.uses += 1
            state.entries[id] = Entry(record: Self.contents(record), book: book, lastUsed: state.uses)
            while state.entries.count > capacity, let oldest = state.entries.min(by: { $0.value.lastUsed < $1.value.lastUsed }) {
                state.entries[oldest.key] = nil
            }
        }
    }

    /// Forgets the book with `id` (updated or deleted through this repository).
    func forget(_ id: Int64) {
        state.withLock { _ = $0.entries.removeValue(forKey: id) }
    }

    /// The row without what changes while the book stays the same.
    private static func contents(_ record: BookRecord) -> BookRecord {
        var contents = record
        contents.progressPage = nil
        contents.progressUpdatedAt = nil
        return contents
    }
}
