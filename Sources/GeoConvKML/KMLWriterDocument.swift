import GeoConvCore
internal import GeoConvXML

/// The document around the placemarks: its start (root, the document's own elements, shared
/// styles, StyleMaps and the schema, as the placemarks need them) and its end.
extension KMLWriterState {
    /// Closes the folders, writes the start (or rewrites the one written early when the
    /// placemarks added to it), the placemarks held and the end.
    func finish() throws(GeoConvError) {
        buffer.removeAll(keepingCapacity: true)
        try moveToFolder([])
        try body.append(buffer)
        let start = documentStart()
        if let writtenStart {
            if start.count <= writtenStart.length {
                // (In the room left after it: nothing written after the room moves.)
                if start != writtenStart.bytes {
                    try output.overwritePrefix(KMLWriterState.padded(start, to: writtenStart.length))
                }
            } else {
                try output.replacePrefix(writtenStart.length, with: start)
            }
        } else {
            try output.write(start)
        }
        if options.topFoldersAsDocuments {
            try drainPuttingInSchemas()
        } else {
            try body.drain(into: output)
        }
        try output.write("</Document>\n</kml>\n")
        try output.flush()
    }

    /// Everything before the placemarks: the root, the document's own elements, the shared
    /// styles and the schema, as the features written so far need them.
    func documentStart() -> [UInt8] {
        let view = documentViewBytes()
        buffer.removeAll(keepingCapacity: true)
        append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        append("<kml xmlns=\"http://www.opengis.net/kml/2.2\"")
        if usesGX { append(" xmlns:gx=\"http://www.google.com/kml/ext/2.2\"") }
        append(">\n<Document>\n")
        if let name = header.name { append(text: "<name>\(XMLEscaping.text(name))</name>\n") }
        if let description = header.description {
            append(text: "<description>\(XMLEscaping.cdataOrText(description))</description>\n")
        }
        if let view {
            buffer.append(contentsOf: view)
            append("\n")
        } else if let camera = header.camera {
            let longitude = (try? viewLongitude(camera.target.longitude, reports: false)) ?? camera.target.longitude
            append(text: "<LookAt><longitude>\(DecimalFormatter.shortest(longitude))</longitude>")
            append(text: "<latitude>\(DecimalFormatter.shortest(camera.target.latitude))</latitude>")
            append(text: "<heading>\(DecimalFormatter.shortest(camera.bearing))</heading>")
            append(text: "<tilt>\(DecimalFormatter.shortest(camera.viewingAngle))</tilt>")
            append(text: "<range>\(DecimalFormatter.shortest(camera.kmlRange))</range></LookAt>\n")
        }
        for (id, xml) in styles { append(text: "<Style id=\"\(XMLEscaping.attribute(id))\">\(xml)</Style>\n") }
        for (id, pair) in styleMaps {
            let ids = pair.split(separator: "|", maxSplits: 1).map(String.init)
            guard ids.count == 2 else { continue }
            append(
                text:
                    "<StyleMap id=\"\(XMLEscaping.attribute(id))\"><Pair><key>normal</key><styleUrl>#\(XMLEscaping.text(ids[0]))</styleUrl></Pair>"
            )
            append(
                text: "<Pair><key>highlight</key><styleUrl>#\(XMLEscaping.text(ids[1]))</styleUrl></Pair></StyleMap>\n")
        }
        if !header.tileLayers.isEmpty {
            // Tile layers have no KML element: kept in the document's ExtendedData, read back by geoconv.
            append(text: "<ExtendedData><Data name=\"\(ModelKey.tileLayers.name)\"><value>")
            XMLEscaping.appendText(JSONText.string(TileLayer.json(header.tileLayers)), to: &buffer)
            append("</value></Data></ExtendedData>\n")
        }
        appendSchema(id: KMLWriterState.schemaID)
        return buffer
    }

    /// The document's view as read (its range, heading and altitude exactly), while it is
    /// still the camera, with a valid altitude mode: made the first time the start is, before
    /// its root (`documentView`).
    private func documentViewBytes() -> [UInt8]? {
        if let made = documentView { return made }
        var made: [UInt8]?
        if let camera = header.camera, let view = header.foreignMembers[model: .view],
            CameraPosition(kmlView: view) == camera,
            view["altitudeMode"].map({ KMLWriterState.altitudeModes.contains($0.stringValue ?? "") }) ?? true
        {
            let around = buffer
            buffer = []
            do throws(GeoConvError) { try writeView(view, reportsWrap: false) } catch {}
            made = buffer
            buffer = around
        }
        documentView = .some(made)
        return made
    }

    /// The `<Schema>` of every field written, with `id` (nothing when there is no field).
    private func appendSchema(id: String) {
        guard !schema.isEmpty || !arrayFields.isEmpty else { return }
        append(text: "<Schema name=\"\(id)\" id=\"\(id)\">\n")
        for (field, type) in schema { schemaField("SimpleField", field, type) }
        for (field, type) in arrayFields { schemaField("gx:SimpleArrayField", field, type) }
        append("</Schema>\n")
    }

    /// Writes the placemarks held, with a copy of the schema (ids `geoconv-schema-2`, `-3`, …)
    /// at the start of each top-level Document, where `moveToFolder` left a NUL byte.
    private func drainPuttingInSchemas() throws(GeoConvError) {
        var copies = 1
        try body.drain { bytes throws(GeoConvError) in
            var start = 0
            while let marker = bytes[start...].firstIndex(of: 0) {
                try output.write(Array(bytes[start..<marker]))
                copies += 1
                buffer.removeAll(keepingCapacity: true)
                appendSchema(id: "\(KMLWriterState.schemaID)-\(copies)")
                try output.write(buffer)
                start = marker + 1
            }
            try output.write(start == 0 ? bytes : Array(bytes[start...]))
        }
    }

    /// A schema's `SimpleField` or `gx:SimpleArrayField`, with its display name when it has one.
    private func schemaField(_ element: String, _ field: String, _ type: SchemaType) {
        append(text: "<\(element) name=\"\(XMLEscaping.attribute(field))\" type=\"\(type.rawValue)\"")
        if let label = displayNames[field] {
            append(text: "><displayName>\(XMLEscaping.text(label))</displayName></\(element)>\n")
        } else {
            append("/>\n")
        }
    }

    /// Whether `text` is an XML NCName (what KML's `id` attributes must be).
    static func isNCName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return text.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || $0.properties.numericType != nil || "-_.".unicodeScalars.contains($0)
        }
    }
}

/// The placemarks written straight after a start written early, while it still fits.
extension KMLWriterState {
    /// Puts placemark bytes after those before them: straight into the file once its start
    /// is written and while what has been added to it since still fits in its place
    /// (`writtenStart`), else into `body`.
    func emit(_ bytes: [UInt8]) throws(GeoConvError) {
        if writesStraight, startChanges == fittingChanges || startStillFits() {
            try output.write(bytes)
            return
        }
        writesStraight = false
        try body.append(bytes)
        if writtenStart == nil, body.count >= KMLWriterState.earlyStartThreshold, output.rewritesPrefix,
            !options.topFoldersAsDocuments  // their schemas are put in as the spool is drained
        {
            let start = documentStart()
            let length = max(KMLWriterState.startRegion, start.count)
            try output.write(KMLWriterState.padded(start, to: length))
            try body.drain(into: output)
            writtenStart = (start, length)
            fittingChanges = startChanges
            writesStraight = true
        }
    }

    /// Whether the start as it is now fits where the one written early and its room are
    /// (made again only when something was added to it: a few times in a file). The start
    /// only grows: once it does not fit, it never will.
    private func startStillFits() -> Bool {
        guard let writtenStart else { return false }
        let placemark = buffer
        defer { buffer = placemark }
        guard documentStart().count <= writtenStart.length else { return false }
        fittingChanges = startChanges
        return true
    }

    /// `start` and white space after it, `length` bytes in all: lines of spaces, at most a
    /// kilobyte each, the last one ending the room.
    static func padded(_ start: [UInt8], to length: Int) -> [UInt8] {
        var bytes = start
        let room = length - start.count
        bytes.reserveCapacity(length)
        for index in 0..<max(0, room) {
            bytes.append(index % 1024 == 1023 || index == room - 1 ? UInt8(ascii: "\n") : UInt8(ascii: " "))
        }
        return bytes
    }
}
