import Hummingbird

/// `GET /v1/books`: the library's books.
struct BookListResponse: ResponseEncodable { var books: [BookSummaryResponse] }
