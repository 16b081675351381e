/// The body of `PUT /v1/books/{id}/progress`: a page label or a 1-based page index.
struct ProgressUpdateBody: Decodable {
    var page: String?
    var page_index: Int?
}
