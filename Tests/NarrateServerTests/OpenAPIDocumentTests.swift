import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NarrateKit
import Testing
@testable import NarrateServer

@Suite("OpenAPIDocument")
struct OpenAPIDocumentTests {
    @Test("Given the router, when its routes are compared with /openapi.json, then each side has exactly the other's")
    func documentMatchesRouter() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-openapi-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = NarrateConfiguration.standard()
        configuration.cacheDirectory = folder.appendingPathComponent("cache").path
        configuration.libraryPath = folder.appendingPathComponent("library.sqlite").path
        let server = try NarrateServer(configuration: configuration, server: ServerConfiguration(), logger: Logger(label: "test"))
        let routes = Set(server.router().routes.map { "\($0.method.rawValue) \(Self.openAPIPath($0.path.description))" })

        let document = try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var documented = Set<String>()
        for (path, item) in paths {
            // A path item holds its operations and, beside them, the parameters they share.
            for method in item.keys where Self.methods.contains(method) { documented.insert("\(method.uppercased()) \(path)") }
            #expect(Set(item.keys).subtracting(Self.methods).isSubset(of: ["parameters"]), "\(path) holds \(item.keys.sorted())")
        }
        #expect(routes == documented, "routes without a description: \(routes.subtracting(documented).sorted()); described but not routed: \(documented.subtracting(routes).sorted())")
    }

    @Test("Given the document, when every $ref is followed, then it names a component that exists")
    func referencesResolve() throws {
        let json = OpenAPIDocument.json
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let components = try #require(document["components"] as? [String: [String: Any]])
        let references = json.matches(of: /"\$ref": "#\/components\/(\w+)\/(\w+)"/).map { (String($0.output.1), String($0.output.2)) }
        #expect(!references.isEmpty)
        for (kind, name) in references {
            #expect(components[kind]?[name] != nil, "#/components/\(kind)/\(name) is missing")
        }
    }

    @Test("Given the document, when the book upload's types and the book format are read, then they are the ones the service takes and gives")
    func bookTypesAndFormats() throws {
        // Given
        let document = try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let upload = try #require(paths["/v1/books"]?["post"] as? [String: Any])
        let content = try #require((upload["requestBody"] as? [String: Any])?["content"] as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let formats = try #require((schemas["BookFormat"] as? [String: Any])?["enum"] as? [String])

        // Then
        #expect(Set(content.keys) == RequestContentType.bookTypes)
        #expect(formats == DocumentFormat.allCases.map { "\($0)" })
    }

    /// The fields of an OpenAPI path item that are operations.
    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// Hummingbird writes parameters as `{id}` or `:id`; OpenAPI as `{id}`.
    static func openAPIPath(_ path: String) -> String {
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        let withSlash = trimmed.hasPrefix("/") ? trimmed : "/" + trimmed
        return withSlash.split(separator: "/", omittingEmptySubsequences: false).map { part in
            part.hasPrefix(":") ? "{\(part.dropFirst())}" : String(part)
        }.joined(separator: "/")
    }
}
