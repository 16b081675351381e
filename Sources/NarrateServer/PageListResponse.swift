import Hummingbird

/// `GET /v1/books/{id}/pages`: every page with its chapter and word count.
struct PageListResponse: ResponseEncodable {
    struct Entry: ResponseEncodable { var index: Int; var page: String; var chapter: String?; var words: Int }

    var book_id: String
    var pages: [Entry]
}
