import Hummingbird

/// `GET /v1/books/{id}/toc`: the chapters with their first pages.
struct TableOfContentsResponse: ResponseEncodable {
    struct Entry: ResponseEncodable { var title: String; var depth: Int; var page_index: Int; var page: String }

    var book_id: String
    var chapters: [Entry]
}
