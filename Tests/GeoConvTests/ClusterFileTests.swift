import Foundation
import GeoConvCore
import GeoConvTestSupport
import Testing

@testable import GeoConv

/// `MarkerClusters`: an indexed GeoJSON input (positions in memory, lone markers read
/// again from the input, runs indexed on every core) gives exactly the clusters and
/// features of the algorithm run on the features read whole.
@Suite("Clustering a file")
struct ClusterFileTests {
    /// 30,000 markers (several 1 MiB runs) with ids in three forms, properties that look
    /// like members, an escaped member name, and features that are not Points.
    static let collection: String = {
        var lines: [String] = []
        for i in 0..<30_000 {
            let x = 151 + Double(i % 173) / 400
            let y = -33.8 - Double(i % 211) / 500
            let point = #"{"type":"Point","coordinates":[\#(x),\#(y)]}"#
            switch i % 7 {
            case 0:
                lines.append(
                    #"{"type":"Feature","id":"m\#(i)","properties":{"name":"[m\#(i)]","geometry":"x"},"geometry":\#(point)}"#
                )
            case 1:
                lines.append(
                    #"{"type":"Feature","properties":{"id":\#(i),"note":"a \"quoted\" {brace}"},"geometry":\#(point)}"#)
            case 2: lines.append(#"{"geometry":\#(point),"properties":{"k":[1,{"id":5}]},"type":"Feature"}"#)
            case 3: lines.append(#"{"type":"Feature","properties":{},"geo\u006detry":\#(point)}"#)
            case 4:
                lines.append(
                    #"{"type":"Feature","properties":null,"geometry":{"coordinates":[\#(x),\#(y),12.5],"type":"Point"}}"#
                )
            case 5 where i % 5 == 0:
                lines.append(
                    #"{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]}}"#)
            case 5 where i % 5 == 1: lines.append(#"{"type":"Feature","properties":{},"geometry":null}"#)
            default: lines.append(#"{"type":"Feature","id":\#(i),"properties":{"n":\#(i)},"geometry":\#(point)}"#)
            }
        }
        return #"{"type":"FeatureCollection","name":"markers","features":["# + "\n" + lines.joined(separator: ",\n")
            + "\n]}\n"
    }()

    /// What the clusters must be: the algorithm on the features read whole, written in order.
    func expected(zooms: [Double], members: Bool, sequence: Bool = false) throws -> (text: String, markers: Int) {
        let (header, features, _) = try readGeoJSON(Self.collection)
        let markers = features.filter { if case .point? = $0.geometry { true } else { false } }
        let clusterer = MarkerClusterer(
            positions: markers.compactMap { if case .point(let c)? = $0.geometry { c } else { nil } })
        var out: [Feature] = []
        for zoom in zooms {
            for cluster in clusterer.clusters(atZoom: zoom) {
                var feature: Feature
                if cluster.members.count == 1 {
                    feature = markers[cluster.members[0]]
                } else {
                    var box: CoordinateBounds?
                    for index in cluster.members {
                        guard case .point(let c)? = markers[index].geometry else { continue }
                        box = box.map { $0.including(c) } ?? CoordinateBounds(c, c)
                    }
                    feature = MarkerClusters.clusterFeature(
                        at: cluster.position, count: cluster.members.count, box: box)
                    if members {
                        feature.properties["members"] = .array(
                            cluster.members.map { index in
                                switch markers[index].id {
                                case .string(let s)?: .string(s)
                                case .number(let n)?: .number(n)
                                case nil: markers[index].properties["id"] ?? .number(JSONNumber(index))
                                }
                            })
                    }
                }
                if zooms.count > 1 { feature.properties["zoom"] = .number(JSONNumber(Int(zoom))) }
                out.append(feature)
            }
        }
        let written = try FormatIO.write(
            out, header: sequence ? DocumentHeader() : header, as: sequence ? .geoJSONSequence : .geoJSON)
        return (String(decoding: written.bytes, as: UTF8.self), markers.count)
    }

    @Test("Indexed clusters equal the algorithm on the whole features", arguments: [false, true])
    func indexed(members: Bool) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("markers.geojson").path
        try Self.collection.write(toFile: input, atomically: true, encoding: .utf8)
        let zooms: [Double] = [3, 9, 14]
        let report = try MarkerClusters.write(
            .file(input), to: .memory,
            options: ClusterOptions(
                zooms: zooms, writesZoom: true, listsMembers: members,
                outputFormat: .geoJSON))
        let want = try expected(zooms: zooms, members: members)
        #expect(report.markers == want.markers)
        #expect(report.markers > 25_000)
        #expect(
            report.diagnostics.entries["cluster.non-points-skipped"]?.first.message.hasPrefix(
                "\(30_000 - want.markers) features") == true)
        #expect(String(decoding: report.output, as: UTF8.self) == want.text)
    }

    @Test(
        "Clusters written on other cores in pieces are the bytes one writer writes",
        arguments: ["geojson", "geojsonseq"])
    func piecesAsOneWriter(format: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("markers.geojson").path
        try Self.collection.write(toFile: input, atomically: true, encoding: .utf8)
        // Zoom 16 leaves nearly every marker alone: many batches of 8,192 and pieces of 1,024.
        let zooms: [Double] = [2, 16]
        let report = try MarkerClusters.write(
            .file(input), to: .memory,
            options: ClusterOptions(
                zooms: zooms, writesZoom: true, outputFormat: FormatRegistry.standard.format(named: format)))
        let want = try expected(zooms: zooms, members: false, sequence: format == "geojsonseq")
        #expect(report.featuresWritten > 8_192 * 2)
        #expect(String(decoding: report.output, as: UTF8.self) == want.text)
    }

    @Test("A cluster carries count, name, the utility's bucket, a size class and its bbox")
    func clusterProperties() {
        let feature = MarkerClusters.clusterFeature(
            at: Coordinate(latitude: 1, longitude: 2), count: 73,
            box: CoordinateBounds(south: 0, west: 1, north: 2, east: 3))
        #expect(feature.title == "73 markers")
        #expect(feature.properties["count"] == 73)
        #expect(feature.properties["cluster-bucket"] == "50+")
        #expect(feature.style.markerSize == "medium")
        #expect(feature.properties["bbox"] == [1, 0, 3, 2])
        #expect(
            MarkerClusters.clusterFeature(at: Coordinate(latitude: 0, longitude: 0), count: 7, box: nil).properties[
                "cluster-bucket"] == "7")
        #expect(
            MarkerClusters.clusterFeature(at: Coordinate(latitude: 0, longitude: 0), count: 5000, box: nil).style
                .markerSize == "large")
    }

    @Test("A bad feature alone in its cluster is reported at its byte offset")
    func badLoneMarker() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("bad.geojson").path
        let text =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"a":tru},"geometry":{"type":"Point","coordinates":[1,2]}}]}"#
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        let error = #expect(throws: GeoConvError.self) {
            try MarkerClusters.write(
                .file(input), to: .memory, options: ClusterOptions(zooms: [5], outputFormat: .geoJSON))
        }
        #expect(error?.code == .invalidInput)
        let bytes = Array(text.utf8)
        let word = Array("tru}".utf8)
        let offset = bytes.indices.first { bytes[$0...].starts(with: word) }
        #expect(offset != nil)
        #expect(error?.location?.byteOffset == offset)
    }

    @Test("A warning about a lone marker read in a batch is placed at that marker, and its neighbours are unchanged")
    func warningInBatch() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("warn.geojson").path
        let good = { (n: Int, lng: Int) in
            #"{"type":"Feature","properties":{"n":\#(n)},"geometry":{"type":"Point","coordinates":[\#(lng),0]}}"#
        }
        let bad = #"{"type":"Feature","properties":5,"geometry":{"type":"Point","coordinates":[50,0]}}"#
        let text =
            #"{"type":"FeatureCollection","features":["# + [good(1, -50), bad, good(3, 100)].joined(separator: ",")
            + "]}"
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        let report = try MarkerClusters.write(
            .file(input), to: .memory, options: ClusterOptions(zooms: [5], outputFormat: .geoJSON))
        #expect(report.featuresWritten == 3)
        let warning = report.diagnostics.entries["geojson.properties-not-object"]
        #expect(warning?.count == 1)
        let bytes = Array(text.utf8)
        let start = Array(bad.utf8)
        #expect(warning?.first.location?.byteOffset == bytes.indices.first { bytes[$0...].starts(with: start) })
        let (_, features, _) = try readGeoJSON(String(decoding: report.output, as: UTF8.self))
        #expect(features.map { $0.properties["n"] } == [1, nil, 3])
        #expect(
            features.map { $0.geometry } == [
                .point(Coordinate(latitude: 0, longitude: -50)), .point(Coordinate(latitude: 0, longitude: 50)),
                .point(Coordinate(latitude: 0, longitude: 100)),
            ])
    }

    @Test("Inputs that cannot be indexed (KML) are read whole and cluster alike")
    func heldInput() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let kml = directory.appendingPathComponent("markers.kml").path
        _ = try Converter().convert(.file(Fixtures.testdata("geojson/markers.geojson")), to: .file(kml))
        let options = ClusterOptions(zooms: [12], listsMembers: true, outputFormat: .geoJSON)
        let fromKML = try MarkerClusters.write(.file(kml), to: .memory, options: options)
        let fromGeoJSON = try MarkerClusters.write(
            .file(Fixtures.testdata("geojson/markers.geojson")), to: .memory, options: options)
        #expect(fromKML.markers == 6 && fromGeoJSON.markers == 6)
        #expect(fromKML.featuresWritten == 4 && fromGeoJSON.featuresWritten == 4)
        let (_, clusters, _) = try readGeoJSON(String(decoding: fromKML.output, as: UTF8.self))
        #expect(clusters.first?.properties["members"] == ["opera", "quay", "gardens"])
        #expect(clusters.contains { $0.title == "Katoomba" })
    }

    @Test("A GeoJSON text sequence is indexed too and clusters as its collection does")
    func sequenceInput() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let collection = directory.appendingPathComponent("markers.geojson").path
        let sequence = directory.appendingPathComponent("markers.geojsonl").path
        try Self.collection.write(toFile: collection, atomically: true, encoding: .utf8)
        _ = try Converter().convert(.file(collection), to: .file(sequence))
        let options = ClusterOptions(zooms: [14], listsMembers: true, outputFormat: .geoJSON)
        let fromCollection = try MarkerClusters.write(.file(collection), to: .memory, options: options)
        let fromSequence = try MarkerClusters.write(.file(sequence), to: .memory, options: options)
        #expect(fromSequence.markers == fromCollection.markers)
        let a = try readGeoJSON(String(decoding: fromCollection.output, as: UTF8.self)).features
        let b = try readGeoJSON(String(decoding: fromSequence.output, as: UTF8.self)).features
        #expect(a.count > 100)
        #expect(a == b)
    }
}
