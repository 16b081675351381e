/// `GET /openapi.json`: an OpenAPI 3.1 description of the HTTP service. A test checks that it
/// names exactly the routes the router has.
enum OpenAPIDocument {
    static let json = "{}"
}
