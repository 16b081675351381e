import GRDB
import NarrateDomain

extension BookError {
    /// Maps any failure met while using the library database to a `BookError`, so no
    /// `DatabaseError` leaves the Data layer. A `BookError` thrown inside a transaction passes as is.
    /// - Parameters:
    ///   - error: What the database (or our own code inside a transaction) threw.
    ///   - action: What we were doing, in words a user reads (`"saving 'Emma'"`).
    static func library(_ error: any Error, while action: String) -> BookError {
        switch error {
        case let error as BookError:
            return error
        case let error as DatabaseError:
            let message = error.message ?? "\(error.resultCode)"
            return .libraryFailed(reason: "\(action) failed: \(message) (SQLite code \(error.extendedResultCode.rawValue))")
        case is CancellationError:
            return .libraryFailed(reason: "\(action) was cancelled")
        default:
            return .libraryFailed(reason: "\(action) failed: \(error)")
        }
    }
}
