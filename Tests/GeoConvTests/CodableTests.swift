import Foundation
import GeoConv
import GeoConvTestSupport
import Synchronization
import Testing

/// The model's `Codable` conformances (RFC 7946 GeoJSON through the GeoJSON codec) and
/// `FeatureSequence`, held to what the codec reads and writes.
@Suite("Codable GeoJSON and FeatureSequence")
struct CodableTests {
    /// Every GeoJSON file of testdata, the conformance corpus and the real-world files.
    static func geoJSONFiles() throws -> [URL] {
        let roots = [
            Fixtures.testdata.appendingPathComponent("geojson"), Fixtures.conformance.appendingPathComponent("geojson"),
            Fixtures.shared.appendingPathComponent("realworld/geojson"),
        ]
        var files: [URL] = []
        for root in roots {
            guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walk
            where ["geojson", "json"].contains(url.pathExtension) && url.lastPathComponent != "manifest.json" {
                files.append(url)
            }
        }
        return files.sorted { $0.path < $1.path }
    }

    /// JSON text with every object's members in key order and every number as the shortest
    /// `Double` literal: what survives Foundation's coders, which keep neither.
    static func canonical(_ bytes: [UInt8]) -> String? {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) else { return nil }
        func normalise(_ value: JSONValue) -> JSONValue {
            switch value {
            case .number(let number): JSONNumber(number.doubleValue).map(JSONValue.number) ?? value
            case .array(let elements): .array(elements.map(normalise))
            case .object(let members):
                .object(JSONObject(uniqueKeysWithValues: members.map { ($0.key, normalise($0.value)) }))
            default: value
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(normalise(value))).map { String(decoding: $0, as: UTF8.self) }
    }

    /// What the GeoJSON codec writes for `document`.
    static func written(_ document: OverlayDocument) throws -> [UInt8] {
        var options = ConversionOptions()
        options.outputFormat = .geoJSON
        return try document.save(to: .memory, options: options).output
    }

    @Test(
        "Decoding and encoding every GeoJSON fixture the codec reads gives what the codec writes, up to member order and number spelling"
    )
    func heldToTheCodec() throws {
        var compared = 0
        for file in try Self.geoJSONFiles() {
            let bytes = try Data(contentsOf: file)
            var options = ConversionOptions()
            options.inputFormat = .geoJSON
            guard
                let byCodec = try? OverlayDocument.load(
                    .memory(Array(bytes), name: file.path), options: options,
                    diagnostics: DiagnosticLog(strict: true)),
                let codecBytes = try? Self.written(byCodec)
            else { continue }  // refused, or read with a warning: Codable throws there (tested below)
            guard let expected = Self.canonical(codecBytes) else {
                // A number beyond Double (huge-integer.geojson): Codable numbers go through Double, so decoding refuses it.
                #expect(throws: DecodingError.self, "\(file.path)") {
                    try JSONDecoder().decode(OverlayDocument.self, from: bytes)
                }
                continue
            }

            let decoded = try JSONDecoder().decode(OverlayDocument.self, from: bytes)
            #expect(Self.canonical(try Self.written(decoded)) == expected, "decoded: \(file.path)")
            #expect(decoded.features.count == byCodec.features.count)

            // Encoding stops where the codec, strict, stops: at the same warning. Accepting
            // warnings, it gives what the codec writes.
            var strictOptions = ConversionOptions()
            strictOptions.outputFormat = .geoJSON
            strictOptions.strict = true
            var codecWarning: GeoConvError?
            do { _ = try byCodec.save(to: .memory, options: strictOptions) } catch { codecWarning = error }
            var encodingWarning: GeoConvError?
            do { _ = try JSONEncoder().encode(byCodec) } catch { encodingWarning = Self.underlying(error) }
            #expect(
                encodingWarning?.code == codecWarning?.code && encodingWarning?.message == codecWarning?.message,
                "\(file.path)")
            let accepting = JSONEncoder()
            accepting.userInfo[.geoConvAcceptsWarnings] = true
            let encoded = try accepting.encode(byCodec)
            #expect(Self.canonical(Array(encoded)) == expected, "encoded: \(file.path)")
            let reread = try JSONDecoder().decode(OverlayDocument.self, from: encoded)
            #expect(Self.canonical(try Self.written(reread)) == expected, "encoded and decoded: \(file.path)")

            let acceptingDecoder = JSONDecoder()
            acceptingDecoder.userInfo[.geoConvAcceptsWarnings] = true
            for feature in byCodec.features {
                // (Compared as written: the writer may rewind a ring, as it does for the document.)
                let again = try acceptingDecoder.decode(Feature.self, from: accepting.encode(feature))
                #expect(
                    Self.canonical(try Self.written(OverlayDocument(features: [again])))
                        == Self.canonical(try Self.written(OverlayDocument(features: [feature]))), "\(file.path)")
            }
            compared += 1
        }
        #expect(compared >= 40, "only \(compared) GeoJSON files compared")
    }

    @Test("Geometries encode as the codec's GeoJSON geometry objects and decode back")
    func geometries() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let point = Geometry.point(Coordinate(latitude: -33.732, longitude: 150.312))
        #expect(
            String(decoding: try encoder.encode(point), as: UTF8.self)
                == #"{"coordinates":[150.312,-33.732],"type":"Point"}"#)
        let line = try JSONDecoder().decode(
            Geometry.self, from: Data(#"{"type":"LineString","coordinates":[[1,2],[3,4,5]]}"#.utf8))
        #expect(
            line
                == .lineString(
                    Path([Coordinate(latitude: 2, longitude: 1), Coordinate(latitude: 4, longitude: 3, altitude: 5)])))
        let optional = try JSONDecoder().decode(
            [Geometry?].self, from: Data(#"[null,{"type":"Point","coordinates":[0,0]}]"#.utf8))
        #expect(optional == [nil, .point(Coordinate(latitude: 0, longitude: 0))])
    }

    @Test("A feature keeps its title, snippet, style and properties through JSONEncoder and JSONDecoder")
    func feature() throws {
        var feature = Feature(
            id: .string("t1"), geometry: .point(Coordinate(latitude: 1.5, longitude: 2.25)),
            title: "Echo Point", snippet: "<b>lookout</b>",
            properties: ["height_m": 1017, "open": true, "tags": ["a", "b"]])
        feature.style.strokeColor = Color(red: 255, green: 0, blue: 0)
        let data = try JSONEncoder().encode(feature)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["type"] as? String == "Feature")
        #expect(object["id"] as? String == "t1")
        let properties = try #require(object["properties"] as? [String: Any])
        #expect(properties["name"] as? String == "Echo Point")
        #expect(properties["description"] as? String == "<b>lookout</b>")
        #expect(properties["height_m"] as? Int == 1017)
        let decoded = try JSONDecoder().decode(Feature.self, from: data)
        #expect(decoded.id == feature.id && decoded.title == feature.title && decoded.snippet == feature.snippet)
        #expect(decoded.style == feature.style && decoded.geometry == feature.geometry)
        #expect(decoded.properties["tags"] == ["a", "b"] && decoded.properties["open"] == true)
    }

    /// The `GeoConvError` under a coding error.
    static func underlying(_ error: any Error) -> GeoConvError? {
        switch error {
        case DecodingError.dataCorrupted(let context): context.underlyingError as? GeoConvError
        case EncodingError.invalidValue(_, let context): context.underlyingError as? GeoConvError
        default: nil
        }
    }

    @Test("What the codec refuses or would warn about throws, with the codec's error and place")
    func errors() throws {
        // Not a Feature.
        let notFeature = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Feature.self, from: Data(#"{"type":"Point","coordinates":[0,0]}"#.utf8))
        }
        #expect(notFeature.flatMap(Self.underlying)?.code == .invalidInput)
        #expect(notFeature.flatMap(Self.underlying)?.message == "expected a GeoJSON Feature, found a Point")
        // A latitude out of range: a warning for the codec, an error here.
        let outOfRange = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(
                OverlayDocument.self,
                from: Data(
                    #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[10,91]}}]}"#
                        .utf8))
        }
        let error = try #require(outOfRange.flatMap(Self.underlying))
        #expect(error.code == .dataLoss)
        #expect(error.message.contains("91"))
        // A position with too few numbers.
        let short = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Geometry.self, from: Data(#"{"type":"Point","coordinates":[10]}"#.utf8))
        }
        #expect(short.flatMap(Self.underlying)?.code == .invalidInput)
        // A circle: a point with a radius for other tools, so a warning; accepted on request.
        let circle = Feature(geometry: .circle(center: Coordinate(latitude: 1, longitude: 2), radius: 250))
        let refused = #expect(throws: EncodingError.self) { try JSONEncoder().encode(circle) }
        #expect(refused.flatMap(Self.underlying)?.code == .dataLoss)
        let accepting = JSONEncoder()
        accepting.userInfo[.geoConvAcceptsWarnings] = true
        accepting.outputFormatting = [.sortedKeys]
        #expect(
            String(decoding: try accepting.encode(circle), as: UTF8.self)
                == #"{"geometry":{"coordinates":[2,1],"type":"Point"},"properties":{"geoconv:radius":250},"type":"Feature"}"#
        )
        let decoder = JSONDecoder()
        decoder.userInfo[.geoConvAcceptsWarnings] = true
        #expect(try decoder.decode(Feature.self, from: accepting.encode(circle)).geometry == circle.geometry)
    }

    @Test("FeatureSequence reads the features OverlayDocument.load reads, from a file and from Data")
    func sequence() async throws {
        for relative in ["kml/trails.kml", "geojson/markers.geojson", "gpx/hike.gpx"] {
            let path = Fixtures.testdata(relative)
            let document = try OverlayDocument.load(.file(path))
            var fromFile: [Feature] = []
            for try await feature in FeatureSequence(.file(path), batchSize: 2, diagnostics: { _, _ in }) {
                fromFile.append(feature)
            }
            #expect(fromFile == document.features, "\(relative)")
            var fromData: [Feature] = []
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            for try await feature in FeatureSequence(data: data, name: relative, diagnostics: { _, _ in }) {
                fromData.append(feature)
            }
            #expect(fromData == document.features, "\(relative)")
            #expect(!fromFile.isEmpty)
        }
    }

    @Test("FeatureSequence: the first warning is an error without a handler; with one, each warning is counted")
    func sequenceWarnings() async throws {
        let text =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[10,91]}},{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[10,92]}}]}"#
        let data = Data(text.utf8)
        await #expect(throws: GeoConvError.self) {
            for try await _ in FeatureSequence(data: data, name: "bad.geojson") {}
        }
        let seen = Mutex<[String: Int]>([:])
        var count = 0
        for try await _ in FeatureSequence(
            data: data, name: "bad.geojson",
            diagnostics: { diagnostic, times in
                seen.withLock { $0[diagnostic.code] = times }
            })
        { count += 1 }
        #expect(count == 2)
        #expect(seen.withLock { $0 }.values.reduce(0, +) == 2)
    }

    @Test("FeatureSequence: a malformed input fails with the codec's located error")
    func sequenceError() async throws {
        let data = Data("{\"type\":\"FeatureCollection\",\n\"features\":[{\"type\":\"Feature\",,}]}".utf8)
        let error = await #expect(throws: GeoConvError.self) {
            for try await _ in FeatureSequence(data: data, name: "broken.geojson", diagnostics: { _, _ in }) {}
        }
        #expect(error?.code == .invalidInput)
        #expect(error?.location?.file == "broken.geojson")
        #expect(error?.location?.line == 2)
    }

    @Test("FeatureSequence: an error comes after the features before it, with the warnings handed over first")
    func sequenceErrorAfterFeatures() async throws {
        let text =
            "{\"type\":\"FeatureCollection\",\"features\":[\n"
            + "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,91]}},\n"
            + "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[2,2]}},\n"
            + "{\"type\":\"Feature\",,}]}"
        let warnings = Mutex<Int>(0)
        var read = 0
        let error = await #expect(throws: GeoConvError.self) {
            for try await _ in FeatureSequence(
                data: Data(text.utf8), name: "late.geojson",
                diagnostics: { _, count in
                    warnings.withLock { $0 += count }
                })
            { read += 1 }
        }
        #expect(read == 2)
        #expect(error?.location?.line == 4)
        #expect(error?.location?.file == "late.geojson")
        #expect(warnings.withLock { $0 } == 1)
    }

    @Test("FeatureSequence: leaving the loop early still hands over the warnings; cancelling throws 'cancelled'")
    func sequenceEarlyEndAndCancellation() async throws {
        let text =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,91]}},{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[2,2]}}]}"#
        let warnings = Mutex<Int>(0)
        do {
            for try await _ in FeatureSequence(
                data: Data(text.utf8), name: "a.geojson", batchSize: 1,
                diagnostics: { _, count in
                    warnings.withLock { $0 += count }
                })
            { break }
        }
        #expect(warnings.withLock { $0 } == 1)
        let task = Task {
            var read = 0
            do {
                for try await _ in FeatureSequence(
                    data: Data(text.utf8), name: "a.geojson", batchSize: 1, diagnostics: { _, _ in })
                {
                    read += 1
                    withUnsafeCurrentTask { $0?.cancel() }
                }
                return "ended after \(read)"
            } catch {
                return "\((error as? GeoConvError)?.code.rawValue ?? "\(error)") after \(read)"
            }
        }
        let cancelled = await task.value
        #expect(cancelled == "cancelled after 1")
    }

    @Test(
        "Codable details: -0 keeps its sign, a bare circle is refused, errors are placed by JSON Pointer, a document decodes equal"
    )
    func codableDetails() throws {
        let zero = try JSONDecoder().decode(
            JSONValue.self, from: JSONEncoder().encode(JSONValue.number(JSONNumber(uncheckedLiteral: "-0"))))
        #expect(zero.doubleValue.map { $0 == 0 && $0.sign == .minus } == true)
        let circle = Geometry.circle(center: Coordinate(latitude: 1, longitude: 2), radius: 250)
        let accepting = JSONEncoder()
        accepting.userInfo[.geoConvAcceptsWarnings] = true
        let refused = #expect(throws: EncodingError.self) { try accepting.encode(circle) }
        #expect(refused.flatMap(Self.underlying)?.code == .dataLoss)
        let outOfRange = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(
                OverlayDocument.self,
                from: Data(
                    #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[10,91]}}]}"#
                        .utf8))
        }
        let error = try #require(outOfRange.flatMap(Self.underlying))
        #expect(error.location?.line == nil && error.location?.file == nil)
        #expect(error.location?.pointer == "/features/0", "\(error)")
        #expect(error.hint?.contains("geoConvAcceptsWarnings") == true, "\(String(describing: error.hint))")
        // (A title would come back also as a "name" property: the codec reads GeoJSON's name as both.)
        var header = DocumentHeader()
        header.name = "walks"
        let document = OverlayDocument(
            header: header,
            features: [
                Feature(
                    id: .string("a"),
                    geometry: .lineString(
                        Path([Coordinate(latitude: 1, longitude: 2), Coordinate(latitude: 3, longitude: 4)])),
                    properties: ["k": 1, "tags": ["x", "y"]]),
                Feature(geometry: nil, properties: ["empty": .null]),
            ])
        let decoded = try JSONDecoder().decode(OverlayDocument.self, from: JSONEncoder().encode(document))
        #expect(decoded == document, "\(decoded) \(document)")
        #expect(decoded.format == .geoJSON && decoded.sourceName == nil)
    }
}
