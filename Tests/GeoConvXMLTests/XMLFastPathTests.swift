import Foundation
import GeoConvTestSupport
import GeoConvXML
import Testing

/// The fast XML path reads what libxml2 reads, or gives up.
@Suite("Fast XML path (runs of Placemarks)")
struct XMLFastPathTests {
    static func xmlFiles() throws -> [URL] {
        // One corpus for both parsers: what we wrote, the peers' fixtures and the real files.
        let roots = [Fixtures.testdata, Fixtures.conformance, Fixtures.shared.appendingPathComponent("realworld")]
        var files: [URL] = []
        for root in roots {
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let url as URL in walker where ["kml", "gpx", "xml"].contains(url.pathExtension.lowercased()) {
                files.append(url)
            }
        }
        return files
    }

    @Test(
        "Every KML, GPX and XML file (testdata, the conformance corpus, the real-world files) reads the same, or the fast path gives up"
    )
    func fixtures() throws {
        let files = try Self.xmlFiles()
        #expect(files.count > 100)
        var readToEnd = 0
        for file in files {
            let bytes = Array(try Data(contentsOf: file))
            #expect(XMLFastPathCheck.firstDifference(in: bytes) == nil, "\(file.path)")
            if let parser = try? XMLPullParser(document: bytes) {
                while (try? parser.next()) != nil {}
                if !parser.gaveUp { readToEnd += 1 }
            }
        }
        #expect(
            readToEnd > files.count / 3, "the fast path read only \(readToEnd) of \(files.count) files to their end")
    }

    @Test(
        "Hand-made documents the fast path reads to the end, as libxml2 does",
        arguments: [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\" xmlns:gx=\"http://www.google.com/kml/ext/2.2\"><Placemark id='a&amp;b'><name>x &lt; y &#233;&#x1F600; &quot;q&quot;</name><gx:Track/></Placemark></kml>",
            "<a>\r\n  <b c=\"1\tx\" d='&#10;'>caf\u{E9} \u{65E7}</b>\r\n<![CDATA[ <raw> &amp; ]]>  <e/>\n</a>\n",
            "<a><b>  </b><c>&#32;</c>tail<![CDATA[x]]></a>",
            "<a x = \"1\" ><b/></a>",
            "<a q='&quot;&apos;&gt;&lt;&amp;' r=\"it's\"><b>&apos;&gt;&quot;&lt;&amp;</b></a>",
            // Boundaries the tokenizer takes from the markup lexer: '>' and "/>" inside quoted values, "]]]>".
            "<a q=\"x>y\" r='/>'><b c=\"]]>\"/><![CDATA[z]]]></a>",
        ])
    func readByBoth(document: String) throws {
        let bytes = Array(document.utf8)
        #expect(XMLFastPathCheck.firstDifference(in: bytes) == nil)
        let parser = try XMLPullParser(document: bytes)
        while try parser.next() != nil {}
        #expect(!parser.gaveUp)
    }

    @Test(
        "Hand-made documents at the edges: the fast path gives up, libxml2 reads or refuses them",
        arguments: [
            "<a  x = \"1\" ><b/ ></a>",
            "<a>0<![CDATA[]]>1</a>",
            // What FuzzXMLFastPath found libxml2 reads otherwise.
            "<a><![CDATA[x\r\ny]]></a>",
            "<?xml version=\"2.0\"?><a/>",
            "<?xml\n version=\"1.0\"?>\n<a/>",
            "<a xmlns=\"u&#38;v\"/>",
            "<a/>&#32;",
            "<a><![CDATA[x]]><![CDATA[y]]></a>",
            "<a><!-- c --><b/></a>",
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>caf\u{E9}</a>",
            "<!DOCTYPE a><a/>",
            "<a>&nbsp;</a>",
            "<a>&ap;</a>",
            "<a b=\"&quo;\"/>",
            "<a>&gtx;</a>",
            "<a><p:b/></a>",
            "<a xmlns:p=\"u\"><b xmlns:q=\"v\"/></a>",
            "<a b=\"1\" b=\"2\"/>",
            "<a>\r</a>",
            "<a><b></c></a>",
            "<a>]]></a>",
            "<a>\u{1}</a>",
            "<a><b\nc=\"1\"/></a>",
            "<a/><b/>",
            "<a>",
            "<a>&#0;</a>",
            "<a>x</a>tail",
        ])
    func edges(document: String) throws {
        let bytes = Array(document.utf8)
        #expect(XMLFastPathCheck.firstDifference(in: bytes) == nil)
        let parser = try XMLPullParser(document: bytes)
        #expect(throws: XMLParseError.self) { while try parser.next() != nil {} }
        #expect(parser.gaveUp)
    }

    @Test(
        "Invalid UTF-8, U+FFFE and surrogates make the fast path give up",
        arguments: [
            [0xC3, 0x28], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBE], [0xF4, 0x90, 0x80, 0x80], [0xFF],
        ] as [[UInt8]])
    func badBytes(bytes: [UInt8]) throws {
        let document = Array("<a>x".utf8) + bytes + Array("</a>".utf8)
        let parser = try XMLPullParser(document: document)
        #expect(throws: XMLParseError.self) { while try parser.next() != nil {} }
        #expect(parser.gaveUp)
        #expect(XMLFastPathCheck.firstDifference(in: document) == nil)
    }

    @Test("A plain document is read to its end, with places, attributes and decoded text")
    func plain() throws {
        let document = Array(
            "<?xml version=\"1.0\" encoding=\"utf-8\" ?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\">\n  <Placemark id=\"p&#49;\">\n\t<name>A &amp; B</name>\n  </Placemark>\n</kml>\n"
                .utf8)
        let parser = try XMLPullParser(document: document)
        #expect(try parser.next() == .start(name: "kml", isEmpty: false))
        #expect(parser.namespaceURI == "http://www.opengis.net/kml/2.2")
        #expect(try parser.next() == .start(name: "Placemark", isEmpty: false))
        #expect(parser.nodeLine == 3)
        #expect(parser.nodeColumn == 3)
        #expect(parser.attribute("id") == "p1")
        #expect(try parser.next() == .start(name: "name", isEmpty: false))
        #expect(try parser.readElementText() == "A & B")
        #expect(try parser.next() == .end(name: "Placemark"))
        #expect(try parser.next() == .end(name: "kml"))
        #expect(try parser.next() == nil)
        #expect(!parser.gaveUp)
    }

    @Test("An element's text (readElementText) is libxml2's: entities, CDATA, text around child elements")
    func elementText() throws {
        let document = Array(
            #"<a><b>1 &lt; 2 &amp;&amp; &apos;x&apos; &gt; &quot;y&quot;</b><c>t<d>u</d><e/>v<![CDATA[ <w> ]]></c><f></f><g/></a>"#
                .utf8)
        let fast = try XMLPullParser(document: document)
        let libxml2 = try XMLPullParser(libxml2Reading: document)
        var texts: [String] = []
        while let event = try fast.next() {
            #expect(try libxml2.next() == event)
            if case .start(let name, false) = event, name != "a" {
                let text = try fast.readElementText()
                #expect(try libxml2.readElementText() == text, "<\(name)>")
                texts.append(text)
            }
        }
        #expect(try libxml2.next() == nil)
        #expect(!fast.gaveUp)
        #expect(texts == [#"1 < 2 && 'x' > "y""#, "tuv <w> ", ""])
    }
}
