import NarrateDomain

/// Says which elements of a content document hold matter that is not the book — a Project
/// Gutenberg header or licence, a printed contents list, an imprint, an index, notes — from the
/// book's own semantics: EPUB 3 `epub:type`, DPUB-ARIA `role`, Project Gutenberg's classes and ids.
enum MatterClassifier {
    /// What an element is, when it is not the book's text.
    enum Role: Equatable {
        /// Matter of this kind: skipped with everything in it.
        case matter(SkippedMatter.Kind)
        /// A note body: skipped, and links to it are note markers.
        case note
        /// A note marker (`noteref`): skipped.
        case noteReference
    }

    static func role(types: [Substring], roles: [Substring], classes: [Substring], id: String?, elementName: String) -> Role? {
        if classes.contains(where: { gutenbergClasses.contains($0) }) || id.map(gutenbergIDs.contains) == true {
            return .matter(.gutenbergBoilerplate)
        }
        if elementName == "aside" || types.contains(where: { noteTypes.contains($0) }) || roles.contains(where: { noteRoles.contains($0) })
            || classes.contains(where: { noteClasses.contains($0) }) {
            return .note
        }
        if types.contains("noteref") || roles.contains("doc-noteref") || classes.contains(where: { noteReferenceClasses.contains($0) }) {
            return .noteReference
        }
        for type in types {
            if let kind = typeKinds[type] { return .matter(kind) }
        }
        for role in roles {
            if let kind = roleKinds[role] { return .matter(kind) }
        }
        return nil
    }

    /// Ebookmaker's `<section class="pg-boilerplate pgheader">` and EpubMaker's
    /// `<div class="pgmonospaced pgheader">` (header and footer alike).
    static let gutenbergClasses: Set<Substring> = ["pg-boilerplate", "pgheader", "pgfooter"]
    static let gutenbergIDs: Set<String> = [
        "pg-header", "pg-footer", "pg-machine-header", "pg-start-separator", "pg-end-separator", "pg-smallprint",
    ]
    static let noteTypes: Set<Substring> = [
        "footnote", "endnote", "rearnote", "note", "footnotes", "endnotes", "rearnotes", "annotation",
    ]
    static let noteRoles: Set<Substring> = ["doc-footnote", "doc-endnote", "doc-endnotes", "doc-notes"]
    /// Project Gutenberg HTML: `<div class="footnote">` bodies, `<a class="fnanchor">` markers.
    static let noteClasses: Set<Substring> = ["footnote", "footnotes"]
    static let noteReferenceClasses: Set<Substring> = ["fnanchor", "noteref"]
    static let typeKinds: [Substring: SkippedMatter.Kind] = [
        "toc": .contents, "landmarks": .navigation, "page-list": .navigation, "loi": .navigation, "lot": .navigation,
        "loa": .navigation, "lov": .navigation, "imprint": .imprint, "colophon": .colophon,
        "copyright-page": .copyright, "index": .index,
    ]
    static let roleKinds: [Substring: SkippedMatter.Kind] = [
        "doc-toc": .contents, "doc-pagelist": .navigation, "navigation": .navigation, "doc-colophon": .colophon,
        "doc-index": .index,
    ]
}
