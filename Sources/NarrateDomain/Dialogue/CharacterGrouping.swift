/// Groups the names of one character: a full name ("Frank Churchill") gathers its titled forms
/// ("Mr. Frank Churchill", "Mr. Churchill") and its first name ("Frank") when no other full name
/// could claim them.
enum CharacterGrouping {
    /// The groups of `phrases` (one phrase per distinct name), most named first.
    static func group(_ phrases: [NamePhrase], counts: [String: Int]) -> [[NamePhrase]] {
        // Full names first, then titled names ("Mr. Darcy"), then bare words ("Darcy"), which
        // may then join a titled name of their own.
        func rank(_ phrase: NamePhrase) -> Int { phrase.words.count > 1 ? 0 : phrase.title != nil ? 1 : 2 }
        let ordered = phrases.sorted { left, right in
            if rank(left) != rank(right) { return rank(left) < rank(right) }
            return (counts[left.key] ?? 0, right.key) > (counts[right.key] ?? 0, left.key)
        }
        var groups: [[NamePhrase]] = []
        var groupOfWords: [[String]: Int] = [:]
        for phrase in ordered {
            if phrase.words.count > 1 {
                if let index = groupOfWords[phrase.words] {
                    groups[index].append(phrase)
                } else {
                    groupOfWords[phrase.words] = groups.count
                    groups.append([phrase])
                }
                continue
            }
            let word = phrase.words[0]
            if let title = phrase.title {
                let gender = CharacterTitles.gender(of: title)
                let candidates = groups.indices.filter { index in
                    let group = groups[index]
                    guard group.contains(where: { $0.words.count > 1 && $0.words.last == word }) else { return false }
                    // "Mr. John Knightley" says that "Mr. Knightley" is someone else.
                    if group.contains(where: { $0.words.count > 1 && $0.title == title }) { return false }
                    // "Miss Gradgrind" is the daughter "Louisa Gradgrind"; "Mr." or "Mrs. Gradgrind" may
                    // be the father or mother of "Thomas Gradgrind", so they join a known gender only.
                    let known = groupGender(group)
                    return known == .unknown ? title.lowercased() == "miss" : known == gender
                }
                if candidates.count == 1 {
                    groups[candidates[0]].append(phrase)
                    continue
                }
            } else if let owner = owner(ofWord: word, groups: groups, counts: counts) {
                groups[owner].append(phrase)
                continue
            }
            groups.append([phrase])
        }
        return groups
    }

    /// The one group a bare word names: the group whose full name starts with it, else the one
    /// group whose names end with it; nil when none or several could.
    /// Of several groups ending with the word, one named twice as often as all the others
    /// together ("Mr. Darcy" against "Miss Darcy") takes it.
    static func owner(ofWord word: String, groups: [[NamePhrase]], counts: [String: Int] = [:]) -> Int? {
        let first = groups.indices.filter { groups[$0].contains { $0.words.count > 1 && $0.words[0] == word } }
        if first.count == 1 { return first[0] }
        if first.count > 1 { return nil }
        let last = groups.indices.filter { groups[$0].contains { $0.words.last == word && ($0.title != nil || $0.words.count > 1) } }
        if last.count == 1 { return last[0] }
        let named = last.map { index in groups[index].reduce(0) { $0 + (counts[$1.key] ?? 0) } }
        guard let top = named.indices.max(by: { named[$0] < named[$1] }) else { return nil }
        let others = named.reduce(0, +) - named[top]
        return named[top] >= 2 * others && others > 0 ? last[top] : nil
    }

    private static func groupGender(_ group: [NamePhrase]) -> CharacterGender {
        for phrase in group {
            if let title = phrase.title, CharacterTitles.gender(of: title) != .unknown {
                return CharacterTitles.gender(of: title)
            }
        }
        return .unknown
    }
}
