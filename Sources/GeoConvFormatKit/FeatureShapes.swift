import GeoConvCore

/// What a writer into nowhere (`geoconv info`) may know of a feature without being handed it:
/// the feature's form, with none of its coordinates and few of its values. Features of one
/// shape have the same property names in the same order, the same kinds of values, and the
/// same kind of geometry; a writer whose losses follow from those alone (`lossKey(of:shape:)`)
/// reports them once per shape, and `info` repeats its report for each feature of that shape.
///
/// A shape holds:
/// - its `facts`; whether the id is a text or a number, and a number's class (as a
///   property's, below); the `sourceForm`;
/// - the geometry's kind, whether it is empty, has altitudes (some or all), and whether all
///   its numbers are finite; for a point, whether it lies within ±180° and ±90°;
/// - each property's name, byte for byte, and its value's class (`FeatureShaper`): null,
///   boolean; an integer of up to nine digits by its sign and digit count; a decimal of up to
///   fifteen digits by its sign, digit counts and the zero at either end; any other number by
///   its sign and whether it has a point or an exponent (`hasOtherNumber`: a writer that
///   reads more of such a number writes its feature); a text by its form (`TextForm`) and
///   whether it holds a character XML forbids. Text is otherwise not in the shape: a writer
///   that reads it reads the feature (and its key does not follow the shape).
///
/// A feature with foreign members, or a property whose value is an array or an object, has no
/// shape: every writer is handed it.
public struct FeatureShape: Hashable, Sendable {
    /// The shape's number among the input's shapes: equal numbers, equal shapes.
    public let number: Int32
    /// The facts writers most often decide on.
    public let facts: Facts

    package init(number: Int32, facts: Facts) {
        self.number = number
        self.facts = facts
    }

    /// The facts writers most often decide on, at hand without reading the feature.
    public struct Facts: OptionSet, Hashable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// The feature has an id.
        public static let hasID = Facts(rawValue: 1 << 0)
        /// The feature has a title.
        public static let hasTitle = Facts(rawValue: 1 << 1)
        /// The feature has a snippet.
        public static let hasSnippet = Facts(rawValue: 1 << 2)
        /// The feature's style is not empty.
        public static let hasStyle = Facts(rawValue: 1 << 3)
        /// The feature has properties.
        public static let hasProperties = Facts(rawValue: 1 << 4)
        /// The feature has a geometry (perhaps an empty one).
        public static let hasGeometry = Facts(rawValue: 1 << 5)
        /// A point within ±180° of longitude and ±90° of latitude, with finite numbers.
        public static let isPlainPoint = Facts(rawValue: 1 << 6)
        /// Some position of the geometry has an altitude.
        public static let hasAltitude = Facts(rawValue: 1 << 7)
        /// Every position, the circle's radius and the style's numbers are finite.
        public static let isAllFinite = Facts(rawValue: 1 << 8)
        /// The geometry is a circle or a collection holding one.
        public static let containsCircle = Facts(rawValue: 1 << 9)
        /// A property's value is a text.
        public static let hasText = Facts(rawValue: 1 << 10)
        /// A text value holds a character XML 1.0 forbids: a control character other than tab,
        /// line feed and carriage return, or U+FFFE, U+FFFF.
        public static let hasXMLForbiddenText = Facts(rawValue: 1 << 11)
        /// A property's value, or a number id, is a number of neither class (see the type),
        /// known by its form alone: an integer of ten digits or more, a long decimal, an
        /// exponent, a negative zero.
        public static let hasOtherNumber = Facts(rawValue: 1 << 12)
        /// A property carries the title (`TitleProperties`: says what it says, under a name key).
        public static let titleCarried = Facts(rawValue: 1 << 13)
        /// A property carries the snippet.
        public static let snippetCarried = Facts(rawValue: 1 << 14)
        /// A property's value, or a number id, is a decimal (of the class above).
        public static let hasDecimal = Facts(rawValue: 1 << 15)
    }

    /// The key of a writer's losses for a feature of this shape, with `state` for what of the
    /// writer's own state they also depend on; `followsShape` when every feature of this
    /// shape would get the same key while that state is as it is (not when the key depends
    /// on a value of the feature's, such as a coordinate).
    public func key(state: UInt64 = 0, followsShape: Bool = true) -> LossKey {
        LossKey(shape: number, state: state, followsShape: followsShape)
    }
}

/// What a writer into nowhere would report for a feature: features with equal keys lose the
/// same (`LossKeyedWriter.lossKey(of:shape:)`).
public struct LossKey: Hashable, Sendable {
    /// The feature's shape.
    public let shape: Int32
    /// The writer's own state that its losses depend on.
    public let state: UInt64
    /// Whether every feature of the shape gets this key while the writer's state is as it
    /// is: then a run of features of one shape is counted at once.
    public let followsShape: Bool
}

/// The form of a text value, as formats with date columns type them (GeoPackage's `DATE` and
/// `DATETIME`).
package enum TextForm: Equatable, Sendable {
    /// `2024-05-17`.
    case date
    /// `2024-05-17T08:30:00.000Z`: UTC, to the millisecond (GeoPackage's form, GDAL's).
    case dateTime
    /// Any other text.
    case other

    /// The form of `bytes`: a date, a UTC date-time, or other text.
    @inlinable package static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> TextForm {
        func digits(_ range: Range<Int>) -> Bool {
            range.upperBound <= bytes.count && range.allSatisfy { bytes[$0] &- 48 < 10 }
        }
        func byte(_ index: Int, _ ascii: Unicode.Scalar) -> Bool {
            index < bytes.count && bytes[index] == UInt8(ascii: ascii)
        }
        guard digits(0..<4), byte(4, "-"), digits(5..<7), byte(7, "-"), digits(8..<10) else { return .other }
        if bytes.count == 10 { return .date }
        guard byte(10, "T"), digits(11..<13), byte(13, ":"), digits(14..<16), byte(16, ":"), digits(17..<19)
        else { return .other }
        // (Milliseconds, as GeoPackage's DATETIME wants them and GDAL writes them.)
        guard byte(19, "."), digits(20..<23), byte(23, "Z"), bytes.count == 24 else { return .other }
        return .dateTime
    }
}
