import GeoConvCore
import GeoConvFormatKit

extension KMLWriterState {
    /// Into nowhere, a placemark with nothing but data and a geometry (neither a collection,
    /// whose members are counted, nor anything with text the writer reads: a title, a
    /// snippet, a style, a text id, a property asked for by name, a character XML forbids;
    /// nor a number typed by its literal) loses what its shape and the schema's fields say;
    /// the key changes with the schema.
    func lossKey(of feature: Feature, shape: FeatureShape) -> LossKey? {
        let facts = shape.facts
        guard discards, events == nil, facts.contains(.isAllFinite),
            facts.isDisjoint(with: [.hasTitle, .hasSnippet, .hasStyle, .hasXMLForbiddenText, .hasOtherNumber]),
            !feature.hasStringID
        else { return nil }
        if case .geometryCollection? = feature.geometry { return nil }
        if facts.contains(.hasProperties) {
            let asks: Bool
            if let known = shapesAsking[shape.number] {
                asks = known
            } else {
                asks = Self.asksForProperties(feature)
                shapesAsking[shape.number] = asks
            }
            if asks { return nil }
        }
        return shape.key(state: UInt64(truncatingIfNeeded: startChanges &+ mixedTypeFields.count))
    }
}
