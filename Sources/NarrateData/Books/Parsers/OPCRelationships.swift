/// A part's relationships in an Office Open XML package (`_rels/.rels`,
/// `word/_rels/document.xml.rels`): which part plays which role, as archive entry names.
struct OPCRelationships {
    private var targets: [(type: String, target: String)] = []

    /// Reads the relationships of the part in folder `base` ("" for the package itself).
    init(_ tree: XMLTree?, base: String) {
        for element in tree?.children("Relationship") ?? [] {
            guard element.attribute("TargetMode")?.lowercased() != "external",
                  let type = element.attribute("Type"), let target = element.attribute("Target") else { continue }
            // A target from the package root starts with "/".
            let resolved = target.hasPrefix("/") ? EPUBPath.resolve(String(target.dropFirst()), from: "") : EPUBPath.resolve(target, from: base)
            if let resolved { targets.append((type, resolved)) }
        }
    }

    /// The first part whose relationship type ends in `/role` (`officeDocument`, `styles`): the
    /// transitional and strict schemas' types differ before it.
    func target(_ role: String) -> String? {
        targets.first { $0.type.hasSuffix("/" + role) }?.target
    }

    /// Where the relationships of `part` are kept: `word/document.xml` → `word/_rels/document.xml.rels`.
    static func relationshipsPart(of part: String) -> String {
        let folder = EPUBPath.directory(of: part)
        let name = part.split(separator: "/").last.map(String.init) ?? part
        return (folder.isEmpty ? "" : folder + "/") + "_rels/" + name + ".rels"
    }
}
