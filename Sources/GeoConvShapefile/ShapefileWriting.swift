#if Shapefile
internal import CShapelib
import Foundation
import GeoConvCore
import GeoConvFormatKit
import GeoConvIO
import ZIPFoundation

/// The state of a `ShapefileWriter`: the shapefiles open in the temporary folder (the first
/// one's `.shp` in the output itself when it can be, `writesShpIntoOutput`), the spool of
/// properties and the columns learnt.
final class ShapefileWriting {
    /// One shapefile being written.
    struct File {
        var shapes: ShapeRecordWriter
        /// Its name in the temporary folder (`k0`) and its final base path (`out`, `out_lines`).
        let temporaryBase: String
        let finalBase: String
        var kind: ShapeKind?
        var hasZ = false
        var records = 0
    }

    let output: ByteWriter
    let diagnostics: DiagnosticLog
    let options: ShapefileWriteOptions
    /// The output's path without `.shp` (for a `.zip`, the files' path in the temporary folder).
    let base: String
    /// Whether the files are zipped into the output.
    let zips: Bool
    /// Whether the output is discarded (`geoconv info`): the shapes and columns are counted and
    /// checked, and every loss reported as writing would, but no file is written.
    let counts: Bool
    /// Features written so far (0-based: the one being written), in all files.
    @exclusivity(unchecked) private var featureIndex = 0
    let directory: TemporaryDirectory
    // (One writer is used by one thread: no exclusivity checks on every feature's accesses.)
    @exclusivity(unchecked) var files: [File] = []
    @exclusivity(unchecked) var layout = ShapefileLayout()
    @exclusivity(unchecked) var spool: ShapefileSpool
    @exclusivity(unchecked) var schema = DBFSchema()
    var projection: String?
    /// Features dropped by `--shp-kind`, by kind.
    var dropped: [ShapeKind: Int] = [:]

    /// The largest .shp or .dbf dBase and shapefile readers take: 2 GB.
    static let maximumFileBytes = Int(Int32.max)

    /// Writes beside `path`; with none (standard output, memory, nothing), in a temporary
    /// folder, zipped into the output.
    init(
        output: ByteWriter, path: String?, options: ShapefileWriteOptions, diagnostics: DiagnosticLog
    ) throws(GeoConvError) {
        self.output = output
        self.diagnostics = diagnostics
        self.options = options
        counts = output.discards
        let names =
            (0..<ShapeKind.allCases.count).flatMap { i in ["shp", "shx", "dbf", "cpg", "prj"].map { "k\(i).\($0)" } }
            + ["spool", "out.shx", "out.dbf", "out.cpg", "out.prj", "out.zip"]
        zips = path?.lowercased().hasSuffix(".zip") ?? true
        if let path {
            let slash = path.lastIndex(of: "/")
            let folder = slash.map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
            directory = try TemporaryDirectory(holding: names, in: folder)
            if zips {
                let stem = String(path[(slash.map { path.index(after: $0) } ?? path.startIndex)...].dropLast(4))
                base = directory.url.appendingPathComponent(stem.isEmpty ? "out" : stem).path
            } else {
                base = path.lowercased().hasSuffix(".shp") ? String(path.dropLast(4)) : path
            }
        } else {
            directory = try TemporaryDirectory(holding: names)
            base = directory.url.appendingPathComponent("out").path
        }
        spool = try ShapefileSpool(path: counts ? nil : directory.url.appendingPathComponent("spool").path)
        schema.countsChanges = counts
    }

    deinit {
        // (Closed already when the writer finished; a failed conversion leaves them open.)
        for index in files.indices { files[index].shapes.abandon() }
        spool.abandon()
    }

    func begin(_ header: DocumentHeader) throws(GeoConvError) {
        projection = try ShapefileProjectionText.prj(for: header.crs, diagnostics: diagnostics)
        _ = try header.droppingParts(unheldBy: .shapefile, diagnostics: diagnostics)
    }

    func write(_ feature: Feature) throws(GeoConvError) {
        defer { featureIndex += 1 }
        if !feature.style.isEmpty {
            try diagnostics.warn(
                ShapefileCode.styleDropped, "styles have no place in a shapefile and are not written",
                hint: "write KML or GeoJSON to keep them")
        }
        if !feature.foreignMembers.isEmpty {
            try diagnostics.warn(
                ShapefileCode.foreignMembersDropped,
                "a feature's members beyond its properties have no place in a shapefile")
        }
        guard let geometry = feature.geometry, !geometry.isEmpty else {
            try writeShape(nil, kind: nil, feature: feature)
            return
        }
        if case .geometryCollection(let members) = geometry {
            try diagnostics.warn(
                ShapefileCode.collectionSplit,
                "a GeometryCollection is written as one shape per member, each with the feature's attributes, in the shapefile of its kind",
                hint: "a shapefile holds one geometry kind; --explode-collections says so up front")
            for member in Self.flattened(members) { try write(member, feature: feature) }
            return
        }
        try write(geometry, feature: feature)
    }

    /// Into nowhere, a feature without a geometry (or with an empty one) or with a point, for a
    /// file that holds such shapes already, loses what its shape and the file's `z` say, when
    /// its values teach the DBF's columns what the shape says: booleans and integers of up to
    /// nine digits (not the widths of texts or decimals), and no title, snippet or id. Such a
    /// feature changes the columns (then the key) or only the counts of records and bytes,
    /// which `countAgain(_:times:)` adds. Near 2 GB, and with `--shp-kind`, features are written.
    func lossKey(of feature: Feature, shape: FeatureShape) -> LossKey? {
        guard counts, options.kind == nil,
            shape.facts.isDisjoint(with: [.hasText, .hasDecimal, .hasOtherNumber, .hasID, .hasTitle, .hasSnippet])
        else { return nil }
        let kind: ShapeKind?
        switch feature.geometry {
        case nil, .empty?: kind = nil
        case .point?: kind = .points
        case let geometry?:
            guard geometry.isEmpty else { return nil }
            kind = nil
        }
        guard let number = layout.existingFile(for: kind), number < files.count, number < 16,
            kind == nil || files[number].kind != nil, files[number].shapes.byteCount < Self.maximumFileBytes / 2
        else { return nil }
        let state = UInt64(number) | (kind == nil ? 16 : 0) | (files[number].hasZ ? 32 : 0)
        return shape.key(state: UInt64(truncatingIfNeeded: schema.changes) << 6 | state)
    }

    /// `times` features of key `key` not written: their records counted in their file.
    func countAgain(_ key: LossKey, times: Int) {
        let number = Int(key.state & 15)
        featureIndex += times
        files[number].records += times
        files[number].shapes.countAgain(null: key.state & 16 != 0, times: times)
    }

    /// Reports a polygon whose rings a reader groups otherwise: a shapefile keeps rings, not
    /// which shell a hole belongs to, and readers (geoconv's, GDAL's) give each hole to the
    /// smallest shell around it — so a hole outside its shell, or inside another, moves. The
    /// written rings are grouped as the reader groups them (`ShapeGeometry.assemble`).
    private func reportRegroupedRings(_ geometry: Geometry) throws(GeoConvError) {
        let polygons: [PolygonRings]
        switch geometry {
        case .polygon(let rings): polygons = [rings]
        case .multiPolygon(let parts): polygons = parts
        default: return
        }
        guard polygons.contains(where: { !$0.holes.isEmpty }) else { return }
        var losses = ShapeGeometry.Losses()
        let read = ShapeGeometry.assemble(polygons.flatMap(ShapeRecordWriter.oriented), losses: &losses)
        let same =
            read.count == polygons.count
            && zip(read, polygons).allSatisfy { read, written in
                read.holes.count == written.holes.count && read.outer.count == written.outer.closed.count
            }
        guard !same else { return }
        try diagnostics.warn(
            ShapefileCode.ringsRegrouped,
            "a polygon's holes are not each inside their own shell: a shapefile keeps rings, not "
                + "which shell a hole belongs to, and it reads back as \(read.count) polygons "
                + "(GDAL groups the rings the same way)",
            hint: "check the polygon with a validity tool (a hole must lie inside its shell)")
    }

    /// Whether some position of `geometry` has no altitude.
    static func lacksAltitude(_ geometry: Geometry) -> Bool {
        if case .point(let c) = geometry { return c.altitude == nil }
        var missing = false
        geometry.forEachCoordinate { if $0.altitude == nil { missing = true } }
        return missing
    }

    /// Members of nested collections, in order.
    static func flattened(_ members: [Geometry]) -> [Geometry] {
        members.flatMap { member -> [Geometry] in
            if case .geometryCollection(let inner) = member { return flattened(inner) }
            return member.isEmpty ? [] : [member]
        }
    }

    private func write(_ geometry: Geometry, feature: Feature) throws(GeoConvError) {
        guard let kind = ShapeKind.of(geometry) else {
            try writeShape(nil, kind: nil, feature: feature)
            return
        }
        if let only = options.kind, only != kind {
            dropped[kind, default: 0] += 1
            return
        }
        try writeShape(geometry, kind: kind, feature: feature)
    }

    /// The file `kind` goes to (`ShapefileLayout`), opened when first needed.
    private func file(for kind: ShapeKind?) throws(GeoConvError) -> Int {
        let number = layout.file(for: kind)
        if number < files.count { return number }
        let temporary = directory.url.appendingPathComponent("k\(number)").path
        // (The first file's .shp straight into the output when it can be rewritten in place.)
        let shapes = try ShapeRecordWriter(
            base: counts ? nil : temporary, shpInto: files.isEmpty && writesShpIntoOutput ? output : nil)
        let finalBase = files.isEmpty ? base : base + "_" + (kind?.rawValue ?? "null")
        files.append(File(shapes: shapes, temporaryBase: temporary, finalBase: finalBase, kind: nil))
        return number
    }

    private func writeShape(_ geometry: Geometry?, kind: ShapeKind?, feature: Feature) throws(GeoConvError) {
        let index = try file(for: kind)
        // (The file is changed in place: a copy would copy its write buffers.)
        if let geometry, let kind {
            if files[index].kind == nil {
                // The first geometry decides the file's kind and whether it has z.
                files[index].kind = kind
                files[index].hasZ = geometry.hasAltitude
                files[index].shapes.shapeType = kind.shapeType(withZ: files[index].hasZ)
            } else if !files[index].hasZ, geometry.hasAltitude {
                try diagnostics.warn(
                    ShapefileCode.altitudeDropped,
                    "altitudes are dropped: the shapefile of \(kind.rawValue) was begun without z by "
                        + "its first feature",
                    hint: "--dim 3 gives every position one, so that z is kept")
            }
            try reportRegroupedRings(geometry)
            if files[index].hasZ, Self.lacksAltitude(geometry) {
                // (GDAL writes them at 0 too.)
                try diagnostics.warn(
                    ShapefileCode.missingZAsZero,
                    "positions without an altitude are written at altitude 0: the shapefile of "
                        + "\(kind.rawValue) has z, and every position of a shape has one",
                    hint: "--dim 2 writes 2D shapes; --dim 3 gives every position an altitude")
            }
            try files[index].shapes.write(geometry, kind: kind)
        } else {
            try files[index].shapes.writeNull()
        }
        if files[index].shapes.byteCount > Self.maximumFileBytes {
            throw GeoConvError(
                .limitExceeded,
                "'\(files[index].finalBase).shp' would pass 2 GB, the most a shapefile holds",
                hint: "split the input (--where, --bbox, --limit) or write GeoJSON, GeoParquet or KML")
        }
        files[index].records += 1
        try spool.append(
            file: index, feature: featureIndex, leading: leadingAttributes(of: feature),
            properties: feature.properties, schema: &schema)
    }

    /// The feature's attributes before its properties: the title as `name` and the snippet as
    /// `description` unless a property carries them (`TitleProperties`: a `NAME` field read as
    /// the title is written back as `NAME`, in its place; a `name` property saying something
    /// else is renamed by the schema, reported), the id as `id` (unless a property has that
    /// name). None of their keys is a property's. (Most features have none: no allocation.)
    private func leadingAttributes(of feature: Feature) -> [(key: String, value: JSONValue)] {
        if feature.title == nil, feature.snippet == nil, feature.id == nil { return [] }
        var record: [(key: String, value: JSONValue)] = []
        func has(_ key: String) -> Bool { feature.properties.keys.contains { $0.lowercased() == key } }
        // A key no property has, so that the title is not overwritten by a property `name`
        // saying something else (the schema makes the field names unique without regard to case).
        func free(_ key: String) -> String {
            var name = key
            var n = 1
            while feature.properties[name] != nil {
                n += 1
                name = key + "_\(n)"
            }
            return name
        }
        if let title = feature.title, !TitleProperties.isCarried(.title, in: feature) {
            record.append((free("name"), .string(title)))
        }
        if let snippet = feature.snippet, !TitleProperties.isCarried(.snippet, in: feature) {
            let key = free("description")
            if !record.contains(where: { $0.key == key }) { record.append((key, .string(snippet))) }
        }
        if let id = feature.id, !has("id"), !record.contains(where: { $0.key == "id" }) {
            switch id {
            case .string(let s): record.append(("id", .string(s)))
            case .number(let n): record.append(("id", .number(n)))
            }
        }
        return record
    }

    func finish() throws(GeoConvError) {
        if files.isEmpty { _ = try file(for: nil) }
        for (kind, count) in dropped.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            try diagnostics.warn(
                ShapefileCode.kindDropped,
                "\(count) features of kind \(kind.rawValue) are not written: --shp-kind \(options.kind?.rawValue ?? "") keeps only that kind",
                hint: "leave out --shp-kind to write one shapefile per kind")
        }
        for index in files.indices { try files[index].shapes.close() }
        if files.count > 1 {
            let list = files.map {
                "\($0.kind?.rawValue ?? "null shapes") in \(($0.finalBase as NSString).lastPathComponent).shp"
            }
            diagnostics.note(
                ShapefileCode.kindsSplit,
                "the features are of several geometry kinds, and a shapefile holds one: \(list.joined(separator: ", "))"
            )
        }
        try ShapefileDBFWriting.write(
            files: files, spool: &spool, schema: &schema, diagnostics: diagnostics,
            counting: counts)
        if !counts { try moveIntoPlace() }
    }

    /// Renames every file next to the output, and copies the main `.shp` (or the zip) into
    /// the output unless it was written there (`writesShpIntoOutput`); the output is renamed
    /// into place when the conversion commits.
    private func moveIntoPlace() throws(GeoConvError) {
        for (number, file) in files.enumerated() {
            var parts = ["shx", "dbf", "cpg"]
            if number > 0 || zips { parts.append("shp") }
            for part in parts {
                let from = file.temporaryBase + "." + part
                guard FileManager.default.fileExists(atPath: from) else { continue }
                guard rename(from, file.finalBase + "." + part) == 0 else {
                    throw GeoConvError(
                        .io, "cannot move '\(file.finalBase).\(part)' into place",
                        hint: "check that the output's folder is writable")
                }
            }
            if let projection {
                guard FileManager.default.createFile(atPath: file.finalBase + ".prj", contents: Data(projection.utf8))
                else {
                    throw GeoConvError(
                        .io, "cannot write '\(file.finalBase).prj'", hint: "check that the output's folder is writable")
                }
            }
        }
        if !writesShpIntoOutput {
            try output.write(contentsOfFileAt: zips ? try zipped() : files[0].temporaryBase + ".shp")
        }
    }

    /// Whether the first file's `.shp` is written into the output as it goes (a file, not
    /// zipped: its header is written over its start at the end), instead of beside it and
    /// copied in when finished.
    private var writesShpIntoOutput: Bool { !zips && output.rewritesPrefix }

    /// Every file written, zipped (deflate) in the temporary folder; the archive's path.
    private func zipped() throws(GeoConvError) -> String {
        let archiveURL = directory.url.appendingPathComponent("out.zip")
        do {
            let archive = try Archive(url: archiveURL, accessMode: .create)
            for file in files {
                for part in ["shp", "shx", "dbf", "prj", "cpg"] {
                    let name = (file.finalBase as NSString).lastPathComponent + "." + part
                    guard FileManager.default.fileExists(atPath: directory.url.appendingPathComponent(name).path) else {
                        continue
                    }
                    try archive.addEntry(with: name, relativeTo: directory.url, compressionMethod: .deflate)
                }
            }
        } catch {
            throw GeoConvError(.io, "cannot zip the shapefile: \(error)", hint: "check the disk space")
        }
        return archiveURL.path
    }
}
#endif
