/// `GET /openapi.json`: an OpenAPI 3.1 description of the HTTP service, written in
/// `Resources/openapi.json` and compiled into the program. `OpenAPIDocumentTests` checks that it
/// names exactly the routes the router has, and `scripts/test-serve.sh` runs schemathesis
/// against it.
enum OpenAPIDocument {
    /// The document as served.
    static let bytes: [UInt8] = PackageResources.openapi_json

    /// The document as text.
    static var json: String { String(decoding: bytes, as: UTF8.self) }
}
