import GeoConvXML
import Testing

/// libxml2's errors as values: the place, and the start tag a message names by its line,
/// kept apart from the words so that both move together and no message text is parsed.
@Suite("XML errors as values")
struct XMLErrorTests {
    func firstError(in text: String) -> XMLParseError? {
        guard let parser = try? XMLPullParser(libxml2Reading: Array(text.utf8)) else { return nil }
        do throws(XMLParseError) {
            while try parser.next() != nil {}
        } catch {
            return error
        }
        return nil
    }

    @Test("A mismatched end tag names the start tag's line, and moving the error moves that line too")
    func mismatch() throws {
        let error = try #require(firstError(in: "<a>\n<b>\n<c>x</c>\n</a>\n"))
        #expect(error.message == "Opening and ending tag mismatch: b line 2 and a")
        #expect(error.startTag?.name == "b")
        #expect(error.startTag?.line == 2)
        #expect(error.startTag?.kind == .mismatched(closedBy: "a"))
        #expect(error.line == 4)
        let moved = error.moving { line, column in (line + 100, column + (line == 4 ? 7 : 0)) }
        #expect(moved.message == "Opening and ending tag mismatch: b line 102 and a")
        #expect(moved.startTag?.line == 102)
        #expect(moved.line == 104)
        #expect(moved.column == error.column + 7)
    }

    @Test("A document that ends inside an element: plain words, no tag named")
    func unfinished() throws {
        let truncated = try #require(firstError(in: "<a>\n  <b>text"))
        // (At the end of the input the reader's wording is made plain; the tag stays unnamed.)
        #expect(truncated.message == "the document ends before its elements are closed: the file is truncated")
        #expect(truncated.startTag == nil)
        #expect(truncated.moving { ($0 + 1, $1) }.message == truncated.message)
    }

    @Test("An error that names no tag keeps its words when moved")
    func plain() throws {
        let error = try #require(firstError(in: "<a>&nope;</a>\n"))
        #expect(error.startTag == nil)
        let moved = error.moving { ($0 + 10, $1) }
        #expect(moved.message == error.message)
        #expect(moved.line == error.line + 10)
    }
}
