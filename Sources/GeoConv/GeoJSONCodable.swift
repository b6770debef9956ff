/// The model's value types as RFC 7946 GeoJSON through `Codable`: `OverlayDocument` as a
/// FeatureCollection, `Feature` as a Feature, `Geometry` as a geometry object.
///
/// The GeoJSON codec does the work both ways, so `Codable` reads what `geoconv` reads and
/// writes what it writes: title and snippet as `name` and `description`, the style as
/// simplestyle members, foreign members kept, circles as the codec writes them. Each value
/// goes through the codec's bytes and a `JSONValue` tree on its way to or from the encoder.
///
/// Nothing is dropped silently: where the codec would warn (a value GeoJSON cannot hold, a
/// circle that other tools read as a point, a position out of range), encoding throws
/// `EncodingError.invalidValue` and decoding throws `DecodingError.dataCorrupted`. Either way
/// the underlying error is the `GeoConvError`, with its code, place and hint. An encoder or
/// decoder whose `userInfo[.geoConvAcceptsWarnings]` is `true` goes on past warnings,
/// accepting what they say; to see them, use `OverlayDocument.load` and `save` with a
/// `DiagnosticLog`.
///
/// Foundation's `JSONEncoder` and `JSONDecoder` keep neither member order nor a number's
/// spelling (see `JSONValue`'s `Codable` conformance): properties decode in key order. Use
/// the coders' default key strategies: a snake-case strategy would rename properties. For
/// the codec's exact bytes, use `OverlayDocument.save`.
///
/// A decoded document's `format` is `.geoJSON` and its `sourceName` `nil`; errors are placed by
/// JSON Pointer into the value.
enum GeoJSONCoding {
    /// How deep a decoded GeoJSON text may nest (the GeoJSON reader's own limit is larger than any real file needs).
    static let maximumDepth = 512

    /// Whether warnings stop the coding (they do unless `userInfo` accepts them).
    static func isStrict(_ userInfo: [CodingUserInfoKey: Any]) -> Bool {
        userInfo[.geoConvAcceptsWarnings] as? Bool != true
    }

    /// The document as the GeoJSON codec writes it, as a JSON tree.
    static func tree(of document: OverlayDocument, strict: Bool) throws(GeoConvError) -> JSONValue {
        var options = ConversionOptions()
        options.outputFormat = .geoJSON
        options.strict = strict
        let report = try document.save(to: .memory, options: options)
        guard let tree = JSONText.parse(report.output, maximumDepth: maximumDepth) else {
            throw GeoConvError(
                .unsupported, "geoconv could not read back its own GeoJSON output",
                hint: "this is a bug in geoconv: please report it with the value encoded")
        }
        return tree
    }

    /// The one Feature object the GeoJSON codec writes for `feature`; `what` names the value
    /// being encoded, for the error when the codec writes other than one feature.
    static func written(_ feature: Feature, strict: Bool, what: String) throws(GeoConvError) -> JSONObject {
        let features =
            try tree(of: OverlayDocument(features: [feature]), strict: strict).objectValue?["features"]?.arrayValue
            ?? []
        guard features.count == 1, let object = features.first?.objectValue else {
            throw GeoConvError(
                .invalidInput, "\(what) is written as \(features.count) GeoJSON features",
                hint: "encode it in an OverlayDocument")
        }
        return object
    }

    /// The document the GeoJSON codec reads from `tree`.
    static func document(from tree: JSONValue, strict: Bool) throws(GeoConvError) -> OverlayDocument {
        var options = ConversionOptions()
        options.inputFormat = .geoJSON
        var document = try OverlayDocument.load(
            .memory(JSONText.compact(streamingOrder(tree)), name: "GeoJSON (Codable)"),
            options: options, diagnostics: DiagnosticLog(strict: strict))
        document.sourceName = nil
        return document
    }

    /// `tree` with every object's `type` first and `features` last, the order in which the
    /// streaming codec reads every member: it knows what an object is from its `type`, and
    /// reports the members a FeatureCollection has after its `features` as lost. A decoder
    /// does not say in which order members came, so this order is chosen for it.
    static func streamingOrder(_ tree: JSONValue) -> JSONValue {
        switch tree {
        case .array(let elements):
            return .array(elements.map(streamingOrder))
        case .object(let members):
            var ordered = JSONObject()
            if let type = members["type"] { ordered["type"] = type }
            for (name, value) in members where name != "type" && name != "features" {
                ordered[name] = streamingOrder(value)
            }
            if let features = members["features"] { ordered["features"] = streamingOrder(features) }
            return .object(ordered)
        default:
            return tree
        }
    }

    /// The one feature the GeoJSON codec reads from a Feature object.
    static func feature(from tree: JSONValue, strict: Bool) throws(GeoConvError) -> Feature {
        guard tree.objectValue?["type"] == .string("Feature") else {
            throw GeoConvError(
                .invalidInput, "expected a GeoJSON Feature, found \(typeName(tree))",
                hint: "decode a Geometry or an OverlayDocument for other GeoJSON objects")
        }
        let document = try document(from: ["type": "FeatureCollection", "features": [tree]], strict: strict)
        guard document.features.count == 1, let feature = document.features.first else {
            throw GeoConvError(
                .invalidInput, "the GeoJSON Feature reads as \(document.features.count) features",
                hint: "decode it as an OverlayDocument")
        }
        return feature
    }

    /// A GeoJSON object's `type`, or the JSON type, for messages.
    static func typeName(_ tree: JSONValue) -> String {
        tree.objectValue?["type"]?.stringValue.map { "a \($0)" } ?? "a JSON \(tree.typeName)"
    }

    static func encodingError(_ error: GeoConvError, for value: Any, at encoder: any Encoder) -> EncodingError {
        let error = forCoding(error)
        return EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: encoder.codingPath, debugDescription: error.description,
                underlyingError: error))
    }

    static func decodingError(_ error: GeoConvError, at decoder: any Decoder) -> DecodingError {
        let error = forCoding(error)
        return DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: error.description,
                underlyingError: error))
    }

    /// The codec's error as a coder's caller can use it: the place is the JSON Pointer into the
    /// value (its line and column would be in the compact text made for the codec, which nobody
    /// sees), and a warning's hint names `geoConvAcceptsWarnings`, not `--strict`.
    static func forCoding(_ error: GeoConvError) -> GeoConvError {
        var error = error
        if let pointer = error.location?.pointer {
            error.location = SourceLocation(pointer: pointer)
        } else {
            error.location = nil
        }
        if error.code == .dataLoss {
            let accept = "set userInfo[.geoConvAcceptsWarnings] = true on the encoder or decoder to accept this"
            error.hint = error.hint.map { $0.contains("--strict") ? accept : $0 + "; or " + accept } ?? accept
        }
        return error
    }
}

extension OverlayDocument: Codable {
    /// Decodes a GeoJSON FeatureCollection (or a single Feature or geometry, as the GeoJSON
    /// codec reads them) with the codec's rules.
    public init(from decoder: any Decoder) throws {
        let tree = try JSONValue(from: decoder)
        do throws(GeoConvError) {
            self = try GeoJSONCoding.document(from: tree, strict: GeoJSONCoding.isStrict(decoder.userInfo))
        } catch {
            throw GeoJSONCoding.decodingError(error, at: decoder)
        }
    }

    /// Encodes the document as the GeoJSON FeatureCollection the codec writes.
    public func encode(to encoder: any Encoder) throws {
        let tree: JSONValue
        do throws(GeoConvError) {
            tree = try GeoJSONCoding.tree(of: self, strict: GeoJSONCoding.isStrict(encoder.userInfo))
        } catch {
            throw GeoJSONCoding.encodingError(error, for: self, at: encoder)
        }
        try tree.encode(to: encoder)
    }
}

extension Feature: Codable {
    /// Decodes a GeoJSON Feature with the codec's rules.
    public init(from decoder: any Decoder) throws {
        let tree = try JSONValue(from: decoder)
        do throws(GeoConvError) {
            self = try GeoJSONCoding.feature(from: tree, strict: GeoJSONCoding.isStrict(decoder.userInfo))
        } catch {
            throw GeoJSONCoding.decodingError(error, at: decoder)
        }
    }

    /// Encodes the GeoJSON Feature the codec writes for this feature.
    public func encode(to encoder: any Encoder) throws {
        let feature: JSONObject
        do throws(GeoConvError) {
            feature = try GeoJSONCoding.written(
                self, strict: GeoJSONCoding.isStrict(encoder.userInfo), what: "the feature")
        } catch {
            throw GeoJSONCoding.encodingError(error, for: self, at: encoder)
        }
        try JSONValue.object(feature).encode(to: encoder)
    }
}

extension Geometry: Codable {
    /// Decodes a GeoJSON geometry object with the codec's rules.
    public init(from decoder: any Decoder) throws {
        let tree = try JSONValue(from: decoder)
        do throws(GeoConvError) {
            let feature = try GeoJSONCoding.feature(
                from: ["type": "Feature", "properties": [:], "geometry": tree],
                strict: GeoJSONCoding.isStrict(decoder.userInfo))
            guard let geometry = feature.geometry else {
                throw GeoConvError(
                    .invalidInput, "expected a GeoJSON geometry, found \(GeoJSONCoding.typeName(tree))",
                    hint: "decode an optional Geometry where the value may be null")
            }
            self = geometry
        } catch {
            throw GeoJSONCoding.decodingError(error, at: decoder)
        }
    }

    /// Encodes the GeoJSON geometry object the codec writes for this geometry.
    ///
    /// A circle (or a collection holding one) is refused: GeoJSON has no circle, and the codec
    /// keeps its radius in the feature's properties, which a bare geometry does not have.
    /// Encode it in a `Feature`.
    public func encode(to encoder: any Encoder) throws {
        if containsCircle {
            throw GeoJSONCoding.encodingError(
                GeoConvError(
                    .dataLoss, "a circle has no GeoJSON geometry: its radius would be lost",
                    hint: "encode the circle in a Feature, which keeps the radius as a geoconv:radius property"),
                for: self, at: encoder)
        }
        let geometry: JSONValue
        do throws(GeoConvError) {
            let feature = try GeoJSONCoding.written(
                Feature(geometry: self), strict: GeoJSONCoding.isStrict(encoder.userInfo),
                what: "the geometry")
            guard let written = feature["geometry"] else {
                throw GeoConvError(
                    .invalidInput, "the geometry is not written as one GeoJSON geometry",
                    hint: "encode it in an OverlayDocument")
            }
            geometry = written
        } catch {
            throw GeoJSONCoding.encodingError(error, for: self, at: encoder)
        }
        try geometry.encode(to: encoder)
    }
}

extension CodingUserInfoKey {
    /// `true` lets the model's GeoJSON `Codable` conformances go on past what the GeoJSON
    /// codec warns about (a circle written as a point with a radius, a position out of
    /// range…), accepting it. Without it, the first warning throws.
    public static let geoConvAcceptsWarnings = CodingUserInfoKey(rawValue: "geoconv.acceptsWarnings")!
}
