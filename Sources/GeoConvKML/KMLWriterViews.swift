import GeoConvCore
internal import GeoConvXML

/// Views and regions: a feature's (or the document's) `LookAt`/`Camera`, with its
/// `gx:TimeSpan`/`gx:TimeStamp`, and a feature's `Region`.
extension KMLWriterState {

    /// A feature's own `LookAt` or `Camera` (or the document's, whose wrapped longitude
    /// `begin` reports once: `reportsWrap` false), as read.
    func writeView(_ view: JSONObject, reportsWrap: Bool = true) throws(GeoConvError) {
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
            try warn(
                KMLCode.elementDropped,
                "a \(kind)'s <\(foreign)> is not an element KML 2.2 gives a \(kind); it is not written")
        }
        for name in KMLWriterState.viewElements where name != foreign {
            guard let value = view[name] else { continue }
            if name == "altitudeMode" {
                if let mode = value.stringValue { try writeAltitudeMode(mode) }
            } else if let number = value.doubleValue, number.isFinite {
                let written = name == "longitude" ? try viewLongitude(number, reports: reportsWrap) : number
                append(text: "<\(name)>\(DecimalFormatter.shortest(written))</\(name)>")
            }
        }
        append(text: "</\(kind)>")
    }

    /// A view's longitude within -180…180, as the KML schema asks: one beyond (gpsbabel writes
    /// 186.5) is the same meridian, wrapped and reported. (Google Earth wraps it the same way.)
    func viewLongitude(_ longitude: Double, reports: Bool = true) throws(GeoConvError) -> Double {
        guard abs(longitude) > 180 else { return longitude }
        let wrapped = longitude.remainder(dividingBy: 360)
        guard reports else { return wrapped }
        try warn(
            KMLCode.viewLongitudeWrapped,
            "a view's longitude \(DecimalFormatter.shortest(longitude)) is beyond ±180, which the KML schema "
                + "refuses: it is written as \(DecimalFormatter.shortest(wrapped)), the same meridian")
        return wrapped
    }

    /// A feature's `Region`: its `LatLonAltBox` and `Lod`.
    func writeRegion(_ region: JSONObject) {
        guard ["north", "south", "east", "west"].allSatisfy({ region[$0]?.doubleValue?.isFinite == true }) else {
            return
        }
        append("<Region><LatLonAltBox>")
        for name in KMLWriterState.regionBox {
            if name == "altitudeMode" {
                if let mode = region[name]?.stringValue, KMLWriterState.altitudeModes.contains(mode),
                    !mode.hasSuffix("SeaFloor")
                {
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
                if let number = region[name]?.doubleValue, number.isFinite {
                    append(text: "<\(name)>\(DecimalFormatter.shortest(number))</\(name)>")
                }
            }
            append("</Lod>")
        }
        append("</Region>")
    }
}
