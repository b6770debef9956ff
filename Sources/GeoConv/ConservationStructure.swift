/// The second half of the conservation check: the round trip's reading compared with the
/// input's, feature by feature and by address (`StructuralComparison`), so that a value which
/// reached the output at another place — a vertex in another ring, a key re-cased, a 2D point
/// made 3D — counts as *changed*, not carried.
package struct ConservationStructure {
    /// One reading: the features in order, each with the place its reader gave it, and its
    /// geometry in the input's own CRS (what a writer that orders features by their
    /// coordinates, FlatGeobuf's, orders them by).
    package struct Reading {
        package var features: [ComparedFeature] = []
        package var places: [SourceLocation?] = []
        package var nativeGeometries: [Geometry?] = []
        package init(features: [ComparedFeature] = [], places: [SourceLocation?] = []) {
            self.features = features
            self.places = places
        }
    }

    let converter: Converter

    package init(converter: Converter) { self.converter = converter }

    /// Reads a file as a conversion does (the format from its name, positions reprojected to
    /// WGS84 so that a document whose writer reprojects compares in degrees), keeping each
    /// feature's place.
    func read(_ path: String) throws(GeoConvError) -> Reading {
        var options = ConversionOptions()
        options.jobs = 1
        let log = DiagnosticLog()
        var loading = try FeatureLoading(
            .file(path), options: options, converter: converter, reprojectingToWGS84: false,
            diagnostics: log)
        var toWGS84: [any FeatureTransform] = [Reproject()]
        _ = try toWGS84.apply(to: loading.header, diagnostics: log)
        var reading = Reading()
        while try loading.next({ (feature: inout Feature) throws(GeoConvError) in
            let native = feature.geometry
            try toWGS84.apply(to: feature, diagnostics: log) { (item: inout Feature) throws(GeoConvError) in
                reading.features.append(ComparedFeature(item))
                reading.places.append(log.currentLocation)
                reading.nativeGeometries.append(native)
            }
        }) {}
        return reading
    }

    /// The differences of the output's reading from the input's, under the format's rules
    /// (`StructuralComparison(format:)`), split into those a warning of the round trip names
    /// and the silent ones. A warning names a feature's change when its place is the
    /// feature's or lies inside it (between its place and the next feature's), or when it is
    /// about the property that changed, quoting its key (`property "Shape_area" has values of
    /// different types`: a column's type is the whole column's); a different number of
    /// features is named by any warning or skipped feature.
    package func changes(
        from input: Reading, to output: Reading, format: FileFormat, warnings: [Diagnostic],
        tolerance: Double = 0
    ) -> (reported: Int, silent: [StructuralDifference]) {
        let comparison = StructuralComparison(format: format, tolerance: tolerance)
        // The features in the order the writer puts them (GPX: waypoints, routes, tracks),
        // by their index in the input; those the format does not hold are left out, each a
        // difference of its own.
        var order = Array(input.features.indices)
        var differences: [StructuralDifference] = []
        if let written = format.capabilities.writtenOrder {
            order = written(
                input.nativeGeometries.count == input.features.count
                    ? input.nativeGeometries : input.features.map(\.geometry))
            var held = Set(order)
            for (index, feature) in input.features.enumerated() where held.insert(index).inserted {
                let kind = feature.geometry.map { "\($0.kind)" } ?? "no geometry"
                differences.append(
                    StructuralDifference(
                        feature: index, category: "feature.missing",
                        place: "feature", detail: "\(kind), not written"))
            }
        }
        let arranged = order.map { input.features[$0] }
        differences += comparison.differences(expected: arranged, got: output.features, written: input.features).map {
            difference in
            var difference = difference
            if difference.feature < order.count { difference.feature = order[difference.feature] }
            return difference
        }
        let located = warnings.compactMap(\.location)
        let messages = warnings.map(\.message)
        var reported = 0
        var silent: [StructuralDifference] = []
        for difference in differences {
            let named: Bool
            if difference.category == "feature.count" {
                named = !warnings.isEmpty
            } else {
                let quoted = "\"" + difference.place + "\""
                named =
                    located.contains { covers($0, feature: difference.feature, places: input.places) }
                    || difference.category.hasPrefix("property.") && messages.contains { $0.contains(quoted) }
            }
            if named { reported += 1 } else { silent.append(difference) }
        }
        return (reported, silent)
    }

    /// Whether a warning's place is feature `index`'s own or inside it.
    private func covers(_ warning: SourceLocation, feature index: Int, places: [SourceLocation?]) -> Bool {
        guard index < places.count, let start = places[index] else { return false }
        if let own = start.pointer, let pointer = warning.pointer, !own.isEmpty {
            return pointer == own || pointer.hasPrefix(own + "/")
        }
        // (Places in another file — a zip's next shapefile — are not comparable.)
        if let file = start.file, let other = warning.file, file != other { return false }
        guard let at = Self.order(warning), let from = Self.order(start), at >= from else { return false }
        // The next feature with a place in the same file ends this one's span.
        for next in places[(index + 1)...] {
            guard let next, next.file == start.file, let end = Self.order(next) else { continue }
            if end == from { continue }  // (several features from one element: a track's pieces)
            return at < end
        }
        return true
    }

    /// A place as a comparable position: line and column in text, else the byte offset.
    private static func order(_ location: SourceLocation) -> (Int, Int)? {
        if let line = location.line { return (line, location.column ?? 0) }
        if let offset = location.byteOffset { return (offset, 0) }
        return nil
    }
}
