import Foundation
import GeoConvTestSupport
import GeoConvXML
import Testing

/// The one markup grammar (`XMLMarkupLexer`) that the start-tag positions under libxml2, the
/// KML run splitter and the fast tokenizer lex with.
@Suite("XML markup lexer")
struct XMLMarkupLexerTests {
    /// Every construct in `bytes`, fed to one lexer in pieces of the sizes `pieces` gives.
    static func constructs(_ bytes: [UInt8], pieces: () -> Int = { Int.max }) -> [XMLMarkupLexer.Construct] {
        var lexer = XMLMarkupLexer()
        var found: [XMLMarkupLexer.Construct] = []
        var fed = 0
        bytes.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            while fed < all.count {
                let end = fed + min(pieces(), all.count - fed)
                while let construct = lexer.next(
                    UnsafeBufferPointer(start: base + lexer.offset, count: end - lexer.offset))
                {
                    found.append(construct)
                }
                fed = end
            }
        }
        return found
    }

    static func describe(_ constructs: [XMLMarkupLexer.Construct]) -> [String] {
        constructs.map { "\($0.kind) \($0.start)..<\($0.end) \($0.line):\($0.column)" }
    }

    @Test("Each kind of construct, with where it starts and ends and its line and column")
    func kinds() {
        let document = """
            <?xml version="1.0"?>
            <!DOCTYPE kml [ <!ELEMENT a "x>y"> ]>
            <kml a="1>2" b='"'><!-- a > b --->
            <![CDATA[ <x> ]]]><e/><?pi ??></kml>
            """
        #expect(
            Self.describe(Self.constructs(Array(document.utf8))) == [
                "processingInstruction 0..<21 1:1",
                "documentType 22..<59 2:1",
                "startTag 60..<79 3:1",
                "comment 79..<94 3:20",
                "cdata 95..<113 4:1",
                "emptyElementTag 113..<117 4:19",
                "processingInstruction 117..<125 4:23",
                "endTag 125..<131 4:31",
            ])
    }

    @Test("Endings that are not endings: '<!-->', '<?>', ']]' then text, '/' in a quoted value")
    func nearEndings() {
        let document = #"<a><!-->--><?>?><![CDATA[]]x]]><b c="/">x</b></a>"#
        #expect(
            Self.describe(Self.constructs(Array(document.utf8))) == [
                "startTag 0..<3 1:1",
                "comment 3..<11 1:4",
                "processingInstruction 11..<16 1:12",
                "cdata 16..<31 1:17",
                "startTag 31..<40 1:32",
                "endTag 41..<45 1:42",
                "endTag 45..<49 1:46",
            ])
    }

    @Test("Pieces of any size give the same constructs: every KML, GPX and XML file of the corpus")
    func piecesOfAnySize() throws {
        let files = try XMLFastPathTests.xmlFiles()
        #expect(files.count > 100)
        var random = SplitMix64(seed: 30)
        for file in files {
            let bytes = Array(try Data(contentsOf: file))
            let whole = Self.constructs(bytes)
            #expect(whole.last.map { $0.end <= bytes.count } ?? true)
            let small = Self.constructs(bytes) { Int.random(in: 1...9, using: &random) }
            let large = Self.constructs(bytes) { Int.random(in: 1...700, using: &random) }
            #expect(Self.describe(small) == Self.describe(whole), "\(file.path)")
            #expect(Self.describe(large) == Self.describe(whole), "\(file.path)")
        }
    }

    @Test("The start tags lexed are the fast tokenizer's, place for place, on every file it reads to the end")
    func agreesWithTheTokenizer() throws {
        var compared = 0
        for file in try XMLFastPathTests.xmlFiles() {
            let bytes = Array(try Data(contentsOf: file))
            guard let parser = try? XMLPullParser(document: bytes) else { continue }
            var places: [String] = []
            while let event = try? parser.next() {
                if case .start = event { places.append("\(parser.nodeLine ?? 0):\(parser.nodeColumn ?? 0)") }
            }
            guard !parser.gaveUp else { continue }
            let lexed = Self.constructs(bytes).filter { $0.kind == .startTag || $0.kind == .emptyElementTag }
            #expect(lexed.map { "\($0.line):\($0.column)" } == places, "\(file.path)")
            compared += 1
        }
        #expect(compared > 50)
    }
}
