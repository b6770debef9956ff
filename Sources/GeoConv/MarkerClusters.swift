public import GeoConvCore
public import GeoConvFormatKit
public import GeoConvGeometry
public import GeoConvIO
import GeoConvParallel

/// What `MarkerClusters.write` is asked to do.
public struct ClusterOptions: Sendable {
    /// The zooms to cluster at, each written in turn (fractional zooms allowed).
    public var zooms: [Double]
    /// The cluster distance in screen points (100 in the Maps utility libraries).
    public var distance: Double
    /// iOS or Android utility semantics.
    public var variant: MarkerClusterer.Variant
    /// Write a `zoom` property on every feature (when several zooms share one output).
    public var writesZoom: Bool
    /// List each cluster's members (their ids, else their input positions) in a `members`
    /// property. Off by default: the lists grow with the data, not with the clusters.
    public var listsMembers: Bool
    /// The input format, when not told by the file name or content.
    public var inputFormat: FileFormat?
    /// The output format, when not told by the file name.
    public var outputFormat: FileFormat?
    /// The formats' own options for reading and writing (`PolylineOptions.precision` …).
    public var formatOptions = FormatOptionValues()

    /// Creates options.
    public init(
        zooms: [Double], distance: Double = 100, variant: MarkerClusterer.Variant = .ios, writesZoom: Bool = false,
        listsMembers: Bool = false, inputFormat: FileFormat? = nil, outputFormat: FileFormat? = nil
    ) {
        self.zooms = zooms
        self.distance = distance
        self.variant = variant
        self.writesZoom = writesZoom
        self.listsMembers = listsMembers
        self.inputFormat = inputFormat
        self.outputFormat = outputFormat
    }
}

/// What a clustering run did.
public struct ClusterReport {
    /// The Point features clustered.
    public var markers: Int
    /// The features written (clusters and lone markers, over every zoom).
    public var featuresWritten: Int
    /// Warnings: features that are not Points, and what the output format loses.
    public var diagnostics: DiagnosticLog
    /// The output bytes, for `.memory` targets.
    public var output: [UInt8]
}

/// Marker clustering of a whole file, as `geoconv cluster` runs it: the Point features of
/// the input clustered at each zoom (the Maps utility libraries' algorithm,
/// `MarkerClusterer`), and one feature written per cluster, streaming.
///
/// Memory holds the positions, not the features. A reader that can index its markers
/// (`MarkerIndexReader.nextMarker()`: GeoJSON and GeoJSON text sequences from a file) gives, per feature,
/// its position and where its bytes are, so a marker that stays alone is read again from
/// the input when it is written, with every property it had. Other inputs (KML, standard
/// input) are read whole into memory.
///
/// A cluster of several markers is a Point at the marker that started it with `count`, a
/// `name` (`"12 markers"`), the Maps utility's bucket label (`cluster-bucket`: `"10+"`…),
/// a size class a style can use (`marker-size`: small under 10, medium under 100, large),
/// its `bbox`, and with `listsMembers` its `members`.
public enum MarkerClusters {
    /// The Maps utility libraries' default buckets (`GMUDefaultClusterIconGenerator`).
    public static let buckets = [10, 20, 50, 100, 200, 500, 1000]

    /// Clusters `input` into `output`. The output is atomic, as a conversion's.
    public static func write(
        _ input: InputSource, to output: OutputTarget, options: ClusterOptions,
        converter: Converter = Converter()
    ) throws(GeoConvError) -> ClusterReport {
        let log = DiagnosticLog()
        var conversion = ConversionOptions(inputFormat: options.inputFormat, outputFormat: options.outputFormat)
        conversion.formatOptions = options.formatOptions
        let writerFormat = try converter.outputFormat(for: output, options: conversion)
        guard let writing = writerFormat.writing else {
            throw GeoConvError(.usage, "\(writerFormat.name) cannot be written")
        }
        let reader = try ByteReader(input)
        let format = try converter.inputFormat(for: input, reader: reader, options: conversion)
        guard let reading = format.reading else { throw GeoConvError(.usage, "\(format.name) cannot be read") }
        let readerOptions = format.readerOptions(conversion, for: input)
        var header: DocumentHeader
        let markers: MarkerSource
        if reader.readsRanges, let makeMarkerReader = reading.markers {
            // An index of where the markers are, where the reader makes one (the input must be
            // read again by range to write the markers left alone).
            var indexing = try makeMarkerReader(reader, readerOptions, log)
            header = try indexing.readHeader()
            if header.crs == nil, indexing.indexesMarkers, let readers = indexing.markerReaders {
                markers = try MarkerSource.indexed(
                    &indexing, readers: readers, reader: reader,
                    keepsIDs: options.listsMembers, log: log)
            } else {
                var features = ParallelReading.wrapping(
                    indexing, header: header, options: readerOptions,
                    inputName: input.displayName, diagnostics: log)
                markers = try MarkerSource.held(&features, header: &header, log: log)
            }
        } else {
            var features: any FeatureReader
            (features, header) = try reading.open(
                reader, options: readerOptions, inputName: input.displayName,
                diagnostics: log)
            markers = try MarkerSource.held(&features, header: &header, log: log)
        }
        if markers.skipped > 0 {
            try log.warn(
                PipelineCode.clusterNonPointsSkipped,
                "\(markers.skipped) features that are not Points are not clustered")
        }
        let clusterer = MarkerClusterer(
            positions: markers.positions, distance: options.distance, variant: options.variant)
        let bytes = try ByteWriter(output)
        do throws(GeoConvError) {
            var writer = try writing.records(bytes, writerFormat.writerOptions(conversion, for: output), log)
            header.crs = nil
            try writer.begin(header)
            var written = 0
            // Zooms two at a time (each zoom's clustering is independent), the next two clustered
            // — and their clusters' sizes and bounds counted — in the background while these
            // are written: four clusterings bound the memory.
            var next = 0
            let positions = markers.positions
            let listsMembers = options.listsMembers
            func clusterNext() -> BackgroundTask<[ZoomClusters]>? {
                guard next < options.zooms.count else { return nil }
                let zooms = Array(options.zooms[next..<min(options.zooms.count, next + 2)])
                next += zooms.count
                return BackgroundTask {
                    clusterer.clusterings(zooms: zooms).concurrentMap {
                        ZoomClusters($0, positions: positions, listsMembers: listsMembers)
                    }
                }
            }
            var pending = clusterNext()
            while let task = pending {
                let zoomClusters = task.value()
                pending = clusterNext()
                for clusters in zoomClusters {
                    written += try write(clusters, of: markers, options: options, to: &writer, log: log)
                }
            }
            try writer.finish()
            try bytes.commit()
            return ClusterReport(
                markers: markers.positions.count, featuresWritten: written, diagnostics: log,
                output: bytes.memoryContents)
        } catch {
            bytes.abort()
            throw error
        }
    }

    /// Writes one zoom's clusters in the order the algorithm made them.
    private static func write<Writer: RecordAppendingWriter>(
        _ zoomClusters: ZoomClusters, of markers: MarkerSource,
        options: ClusterOptions, to writer: inout Writer, log: DiagnosticLog
    )
        throws(GeoConvError) -> Int
    {
        let clustering = zoomClusters.clustering
        let (sizes, members) = (zoomClusters.sizes, zoomClusters.members)
        let count = clustering.count
        // A batch of clusters at a time, made on other cores (markers alone read again from the
        // input) while the previous batch is written.
        let zoom = StyleProperties.number(clustering.zoom)
        let batches = stride(from: 0, to: count, by: 8192).map { $0..<min(count, $0 + 8192) }
        /// A batch's clusters as features, made on other cores in pieces (lone markers read
        /// again, clusters made) and, when the writer's records can be written apart, written
        /// there too; each piece's features or records, in order.
        typealias Piece = (batch: FeatureBatch<Writer.RecordFacts>, error: GeoConvError?)
        func make(_ batch: Range<Int>) throws(GeoConvError) -> BackgroundTask<[Piece]> {
            var pieces: [(range: Range<Int>, batch: FeatureBatch<Writer.RecordFacts>)] = []
            for start in stride(from: batch.lowerBound, to: batch.upperBound, by: 1024) {
                // Made here: a batch's records writer starts from the state of the writer.
                pieces.append(
                    (start..<min(batch.upperBound, start + 1024), try FeatureBatch(for: writer, log: DiagnosticLog())))
            }
            return BackgroundTask {
                pieces.concurrentMap { piece -> Piece in
                    let batch = piece.batch
                    do throws(GeoConvError) {
                        let alone = piece.range.filter { sizes[$0] == 1 }.map { Int(clustering.starts[$0]) }
                        var lone = try markers.features(alone[...], log: batch.log).makeIterator()
                        for cluster in piece.range {
                            var feature: Feature
                            if sizes[cluster] == 1, let marker = lone.next() {
                                feature = marker  // the marker alone keeps all it had
                            } else {
                                let start = Int(clustering.starts[cluster])
                                feature = clusterFeature(
                                    at: markers.positions[start], count: Int(sizes[cluster]),
                                    box: zoomClusters.box(of: cluster))
                                if options.listsMembers {
                                    feature.properties["members"] = .array(
                                        members[cluster].map { markers.memberID(Int($0)) })
                                }
                            }
                            if options.writesZoom { feature.properties["zoom"] = zoom }
                            try batch.add(feature)
                        }
                        try batch.finish()
                        return (batch, nil)
                    } catch {
                        return (batch, error)
                    }
                }
            }
        }
        var pending = try batches.first.map(make)
        for (number, _) in batches.enumerated() {
            guard let task = pending else { break }
            let pieces = task.value()
            pending = number + 1 < batches.count ? try make(batches[number + 1]) : nil
            for piece in pieces {
                log.absorb(piece.batch.log)
                if let error = piece.error { throw error }
                try piece.batch.write(into: &writer, diagnostics: log)
            }
        }
        return count
    }

    /// A cluster of `count` markers as a feature a viewer can style.
    public static func clusterFeature(at position: Coordinate, count: Int, box: CoordinateBounds?) -> Feature {
        var feature = Feature(geometry: .point(position), title: "\(count) markers")
        feature.style.markerSize = count < 10 ? "small" : (count < 100 ? "medium" : "large")
        feature.properties["count"] = .number(JSONNumber(count))
        let bucket = buckets.last { count >= $0 }.map { "\($0)+" } ?? String(count)
        feature.properties["cluster-bucket"] = .string(bucket)
        if let box {
            feature.properties["bbox"] = .array([box.west, box.south, box.east, box.north].map(StyleProperties.number))
        }
        return feature
    }
}

/// One zoom's clustering with each cluster's size, bounds and (when listed) members. Only
/// clusters of more than one marker have bounds (a marker alone is written as itself), kept
/// apart: at high zooms nearly every cluster is a marker alone.
private struct ZoomClusters: Sendable {
    let clustering: MarkerClusterer.Clustering
    let sizes: [Int32]
    /// Each cluster's place in `boxes`, -1 for a marker alone.
    private let boxIndex: [Int32]
    private let boxes: [CoordinateBounds?]
    let members: [[Int32]]

    init(_ clustering: MarkerClusterer.Clustering, positions: [Coordinate], listsMembers: Bool) {
        let count = clustering.count
        var sizes = [Int32](repeating: 0, count: count)
        for owner in clustering.owners { sizes[Int(owner)] += 1 }
        var boxIndex = [Int32](repeating: -1, count: count)
        var boxCount: Int32 = 0
        for cluster in 0..<count where sizes[cluster] > 1 {
            boxIndex[cluster] = boxCount
            boxCount += 1
        }
        var boxes = [CoordinateBounds?](repeating: nil, count: Int(boxCount))
        var members: [[Int32]] = listsMembers ? Array(repeating: [], count: count) : []
        for (item, owner) in clustering.owners.enumerated() {
            let cluster = Int(owner)
            let slot = Int(boxIndex[cluster])
            if slot >= 0 {
                let c = positions[item]
                boxes[slot] = boxes[slot].map { $0.including(c) } ?? CoordinateBounds(c, c)
            }
            if listsMembers { members[cluster].append(Int32(item)) }
        }
        self.clustering = clustering
        self.sizes = sizes
        self.boxIndex = boxIndex
        self.boxes = boxes
        self.members = members
    }

    /// The bounds of a cluster of more than one marker.
    func box(of cluster: Int) -> CoordinateBounds? {
        let slot = Int(boxIndex[cluster])
        return slot >= 0 ? boxes[slot] : nil
    }
}

/// The markers of an input: their positions, and how to get each one's feature back.
private struct MarkerSource {
    var positions: [Coordinate] = []
    /// Features that are not Points.
    var skipped = 0
    /// Indexed: each marker's bytes in the input (start, count), its id's JSON text when
    /// kept, and the reader of one feature.
    var starts: [Int] = []
    var lengths: [Int32] = []
    var ids: [String?] = []
    var input: ByteReader?
    var markerReaders: MarkerReaders?
    /// Held: the features themselves (inputs that cannot be indexed).
    var held: [Feature] = []

    static func indexed(
        _ indexing: inout any MarkerIndexReader, readers: MarkerReaders, reader: ByteReader, keepsIDs: Bool,
        log: DiagnosticLog
    ) throws(GeoConvError) -> MarkerSource {
        var source = MarkerSource(input: reader, markerReaders: readers)
        func add(_ entry: MarkerEntry) throws(GeoConvError) {
            guard let position = entry.position else {
                source.skipped += 1
                return
            }
            source.positions.append(position)
            source.starts.append(entry.bytes.lowerBound)
            source.lengths.append(Int32(clamping: entry.bytes.count))
            if keepsIDs {
                let idRange = entry.id ?? entry.idProperty
                source.ids.append(
                    try idRange.flatMap { range throws(GeoConvError) in
                        try reader.bytes(in: range).map { String(decoding: $0, as: UTF8.self) }
                    })
            }
        }
        // Runs of whole features indexed on every core, where the reader can cut them.
        // (Pipelined: this thread cuts the next runs and adds the oldest's entries, in order,
        // while the workers index the runs between.)
        if indexing.cutsFeatureRuns {
            let name = reader.name
            let jobs = ConversionOptions.defaultJobs
            try inPipeline(
                jobs: jobs, window: jobs * 2,
                cut: { () throws(GeoConvError) -> FeatureRun? in
                    try indexing.nextFeatureRun(size: 1 << 20)
                }, process: { run in Self.index(run, name: name) }
            ) { (run, outcome) throws(GeoConvError) in
                log.absorb(outcome.log, relocating: run.relocate)
                if let error = outcome.error { throw error.relocated(run.relocate) }
                for entry in outcome.entries { try add(entry) }
            }
        }
        while let entry = try indexing.nextMarker() { try add(entry) }
        return source
    }

    /// The entries of one run of features, their bytes placed in the whole input.
    private static func index(
        _ run: FeatureRun, name: String
    ) -> (entries: [MarkerEntry], log: DiagnosticLog, error: GeoConvError?) {
        let log = DiagnosticLog()
        var entries: [MarkerEntry] = []
        do throws(GeoConvError) {
            guard let makeMarkerReader = run.makeMarkerReader else {
                return ([], log, GeoConvError(.unsupported, "this reader's runs of features cannot be indexed"))
            }
            var reader = try makeMarkerReader(try run.input(named: name), log)
            _ = try reader.readHeader()
            guard reader.indexesMarkers else {
                return ([], log, GeoConvError(.unsupported, "this reader's runs of features cannot be indexed"))
            }
            while var entry = try reader.nextMarker() {
                let shift = run.byteOffset
                entry.bytes = (entry.bytes.lowerBound + shift)..<(entry.bytes.upperBound + shift)
                entry.id = entry.id.map { ($0.lowerBound + shift)..<($0.upperBound + shift) }
                entry.idProperty = entry.idProperty.map { ($0.lowerBound + shift)..<($0.upperBound + shift) }
                entries.append(entry)
            }
            return (entries, log, nil)
        } catch {
            return (entries, log, error)
        }
    }

    static func held(
        _ features: inout any FeatureReader, header: inout DocumentHeader, log: DiagnosticLog
    ) throws(GeoConvError)
        -> MarkerSource
    {
        var source = MarkerSource()
        var reproject = Reproject()
        header = try reproject.transform(header, diagnostics: log)
        while let feature = try features.next() {
            log.currentLocation = features.lastLocation
            for item in try reproject.transform(feature, diagnostics: log) {
                if case .point(let c)? = item.geometry {
                    source.positions.append(c)
                    source.held.append(item)
                } else {
                    source.skipped += 1
                }
            }
        }
        log.currentLocation = nil
        return source
    }

    /// The features of the markers `indices`, in order, read on this thread: by one reader
    /// for them all, else each alone.
    func features(_ indices: ArraySlice<Int>, log: DiagnosticLog) throws(GeoConvError) -> [Feature] {
        guard input != nil else { return indices.map { held[$0] } }
        if let batch = batchFeatures(indices) { return batch }
        var features: [Feature] = []
        features.reserveCapacity(indices.count)
        for index in indices { features.append(try feature(index, log: log)) }
        return features
    }

    /// The markers `indices` read again by one reader, their bytes put one after another as
    /// a text sequence; `nil` when anything is to be said about one of them (a warning, an
    /// error, a feature skipped), which reading them one by one then places in the input.
    private func batchFeatures(_ indices: ArraySlice<Int>) -> [Feature]? {
        guard let input, let markerSequenceReader = markerReaders?.sequence else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(indices.reduce(0) { $0 + Int(lengths[$1]) + 2 })
        // Markers close together in the input (most lone markers of a zoom lie in input order)
        // are read with one `pread` of the stretch they lie in, not one each.
        var span: [UInt8] = []
        var rest = indices[...]
        while let first = rest.first {
            var stretch = starts[first]..<(starts[first] + Int(lengths[first]))
            var count = 1
            for index in rest.dropFirst() {
                let start = starts[index]
                guard start >= stretch.upperBound, start - stretch.upperBound <= 4096 else { break }
                stretch = stretch.lowerBound..<(start + Int(lengths[index]))
                count += 1
            }
            span.removeAll(keepingCapacity: true)
            guard (try? input.append(stretch, to: &span)) == true else { return nil }
            for index in rest.prefix(count) {
                let offset = starts[index] - stretch.lowerBound
                bytes.append(0x1E)
                bytes.append(contentsOf: span[offset..<(offset + Int(lengths[index]))])
                bytes.append(0x0A)
            }
            rest = rest.dropFirst(count)
        }
        let log = DiagnosticLog()
        var features: [Feature] = []
        features.reserveCapacity(indices.count)
        do throws(GeoConvError) {
            var reader = markerSequenceReader(try ByteReader(.memory(bytes, name: input.name)), log)
            _ = try reader.readHeader()
            while let feature = try reader.next() { features.append(feature) }
        } catch {
            return nil
        }
        guard features.count == indices.count, log.isEmpty else { return nil }
        return features
    }

    /// Marker `index`'s feature, read again from the input.
    private func feature(_ index: Int, log: DiagnosticLog) throws(GeoConvError) -> Feature {
        guard let input, let markerReader = markerReaders?.one else { return held[index] }
        let range = starts[index]..<(starts[index] + Int(lengths[index]))
        guard let bytes = try input.bytes(in: range) else {
            throw GeoConvError(.io, "cannot read '\(input.name)' again at byte \(range.lowerBound)")
        }
        // Positions in the input: the byte offset (line and column are not known here).
        func place(_ location: SourceLocation) -> SourceLocation {
            SourceLocation(
                file: input.name, byteOffset: (location.byteOffset ?? 0) + range.lowerBound, pointer: location.pointer)
        }
        let featureLog = DiagnosticLog()
        defer { log.absorb(featureLog, relocating: place) }
        do throws(GeoConvError) {
            var reader = markerReader(try ByteReader(.memory(bytes, name: input.name)), featureLog)
            _ = try reader.readHeader()
            guard let feature = try reader.next() else {
                throw GeoConvError(
                    .invalidInput, "the feature at byte \(range.lowerBound) cannot be read again", at: SourceLocation())
            }
            return feature
        } catch {
            throw error.relocated(place)
        }
    }

    /// What a cluster's `members` lists for marker `index`: its id, its `id` property, else its position in the input.
    func memberID(_ index: Int) -> JSONValue {
        if input != nil {
            if index < ids.count, let text = ids[index], let value = JSONText.parse(text) { return value }
            return .number(JSONNumber(index))
        }
        let feature = held[index]
        switch feature.id {
        case .string(let s)?: return .string(s)
        case .number(let n)?: return .number(n)
        case nil: return feature.properties["id"] ?? .number(JSONNumber(index))
        }
    }
}
