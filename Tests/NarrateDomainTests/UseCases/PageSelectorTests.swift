import Testing

@testable import NarrateDomain

@Suite struct PageSelectorTests {
    /// Roman-numbered front matter, then pages numbered from 1, so label `3` is index 5.
    let pages = [
        Page.stub(index: 1, label: "i"),
        Page.stub(index: 2, label: "ii"),
        Page.stub(index: 3, label: "1"),
        Page.stub(index: 4, label: "2"),
        Page.stub(index: 5, label: "3"),
        Page.stub(index: 6, label: "XII"),
    ]

    @Test("A printed label selects its page")
    func selectsByLabel() {
        #expect(PageSelector.select("ii", in: pages)?.index == 2)
        #expect(PageSelector.select("3", in: pages)?.index == 5)
    }

    @Test("A label matches in any case and with surrounding whitespace")
    func labelIsCaseInsensitive() {
        #expect(PageSelector.select("xii", in: pages)?.index == 6)
        #expect(PageSelector.select("  II \n", in: pages)?.index == 2)
    }

    @Test("A number that is no label is a 1-based index")
    func numberFallsBackToIndex() {
        #expect(PageSelector.select("6", in: pages)?.label == "XII")
    }

    @Test("#N always means the index, even when N is also a label")
    func hashMeansIndex() {
        #expect(PageSelector.select("#3", in: pages)?.label == "1")
        #expect(PageSelector.select(" #1 ", in: pages)?.label == "i")
    }

    @Test("Nonsense, zero, negative and past-the-end references select nothing", arguments: ["chapter one", "", "#", "#x", "#0", "0", "-1", "7", "#7", "1.5"])
    func nonsenseSelectsNothing(reference: String) {
        #expect(PageSelector.select(reference, in: pages) == nil)
    }

    @Test("No page is selected in a book without pages")
    func emptyBook() {
        #expect(PageSelector.select("1", in: []) == nil)
    }
}
