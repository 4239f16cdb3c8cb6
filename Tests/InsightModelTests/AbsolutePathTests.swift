import Testing
import InsightModel

@Suite struct AbsolutePathTests {
    @Test func aRelativePathGetsTheWorkingFolderWithItsDotDotKept() {
        #expect(AbsolutePath.of("/srv/x") == "/srv/x")
        #expect(AbsolutePath.of("linked/../x").hasSuffix("/linked/../x"))
        #expect(AbsolutePath.of("x").hasPrefix("/"))
    }

    /// Only `.` and empty components go: `..` after a link is the system's to resolve, and an absolute path stays
    /// distinct from a relative one of the same components.
    @Test func theSpellingDropsDotsAndRepeatedSlashesOnly() {
        #expect(AbsolutePath.spelling(of: "./data//x/.") == "data/x")
        #expect(AbsolutePath.spelling(of: "/srv//data/./x/") == "/srv/data/x")
        #expect(AbsolutePath.spelling(of: "a/../b") == "a/../b")
        #expect(AbsolutePath.spelling(of: "/x") != AbsolutePath.spelling(of: "x"))
        #expect(AbsolutePath.spelling(of: "/") == "/")
    }
}
