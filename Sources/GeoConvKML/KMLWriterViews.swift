internal import GeoConvXML
import GeoConvCore

/// Views and regions: a feature's (or the document's) `LookAt`/`Camera`, with its
/// `gx:TimeSpan`/`gx:TimeStamp`, and a feature's `Region`.
extension KMLWriterState {

    /// A feature's own `LookAt` or `Camera` (or the document's), as read.
    func writeView(_ view: JSONObject) throws(GeoConvError) {
        let kind = view["kind"]?.stringValue == "Camera" ? "Camera" : "LookAt"
        append(text: "<\(kind)>")
        // gx:TimeSpan / gx:TimeStamp first (the view's object extensions precede its elements).
        if let span = view["timespan"]?.objectValue {
            usesGX = true
            append("<gx:TimeSpan>")
            for name in ["begin", "end"] {
                if let text = span[name]?.stringValue { append(text: "<\(name)>\(XMLEscaping.text(text))</\(name)>") }
            }
            append("</gx:TimeSpan>")
        }
        if let stamp = view["timestamp"]?.objectValue, let when = stamp["when"]?.stringValue {
            usesGX = true
            append(text: "<gx:TimeStamp><when>\(XMLEscaping.text(when))</when></gx:TimeStamp>")
        }
        let foreign = kind == "LookAt" ? "roll" : "range"
        if view[foreign] != nil {
            // (pykml writes a LookAt's roll; the KML 2.2 schema has none, and viewers ignore it.)
            try warn("kml.element-dropped",
                     "a \(kind)'s <\(foreign)> is not an element KML 2.2 gives a \(kind); it is not written")
        }
        for name in KMLWriterState.viewElements where name != foreign {
            guard let value = view[name] else { continue }
            if name == "altitudeMode" {
                if let mode = value.stringValue { try writeAltitudeMode(mode) }
            } else if let number = value.doubleValue, number.isFinite {
                append(text: "<\(name)>\(DecimalFormatter.shortest(number))</\(name)>")
            }
        }
        append(text: "</\(kind)>")
    }

    /// A feature's `Region`: its `LatLonAltBox` and `Lod`.
    func writeRegion(_ region: JSONObject) {
        guard ["north", "south", "east", "west"].allSatisfy({ region[$0]?.doubleValue?.isFinite == true }) else { return }
        append("<Region><LatLonAltBox>")
        for name in KMLWriterState.regionBox {
            if name == "altitudeMode" {
                if let mode = region[name]?.stringValue, KMLWriterState.altitudeModes.contains(mode), !mode.hasSuffix("SeaFloor") {
                    append(text: "<altitudeMode>\(mode)</altitudeMode>")
                }
            } else if let number = region[name]?.doubleValue, number.isFinite {
                append(text: "<\(name)>\(DecimalFormatter.shortest(number))</\(name)>")
            }
        }
        append("</LatLonAltBox>")
        if KMLWriterState.regionLod.contains(where: { region[$0] != nil }) {
            append("<Lod>")
            for name in KMLWriterState.regionLod {
                if let number = region[name]?.doubleValue, number.isFinite { append(text: "<\(name)>\(DecimalFormatter.shortest(number))</\(name)>") }
            }
            append("</Lod>")
        }
        append("</Region>")
    }
}
