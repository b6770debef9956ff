import GeoConvCore
import GeoConvIO
import GeoConvParquet

/// What a Parquet file's schema and `geo` metadata say: the geometry column, its CRS, and
/// the columns read as properties (and as title and snippet).
struct GeoParquetLayout {
    enum Role { case property, title, snippet }

    /// How a property's rows are made of its leaf columns.
    enum Shape {
        /// One value per row.
        case scalar
        /// A list of the leaf's values per row (an array): null below `listDefinition`, empty
        /// below `entryDefinition`, else one element per entry.
        case list(listDefinition: Int, entryDefinition: Int)
        /// A map per row (an object) of the leaf's keys and `value`'s values, levels as a list's.
        case map(value: ParquetLeaf, listDefinition: Int, entryDefinition: Int)
        /// A list of structs of plain fields per row (an array of objects): the leaf is the
        /// first field, `others` the rest; an element is null below `elementDefinition`.
        case structs(
            names: [String], others: [ParquetLeaf], listDefinition: Int, entryDefinition: Int,
            elementDefinition: Int)

        /// The levels below which a row's list is null (`list`) or empty (`entry`).
        var levels: (list: Int, entry: Int)? {
            switch self {
            case .scalar: nil
            case .list(let list, let entry), .map(_, let list, let entry), .structs(_, _, let list, let entry, _):
                (list, entry)
            }
        }

        /// The leaves read beside the property's own, entry for entry.
        var others: [ParquetLeaf] {
            switch self {
            case .scalar, .list: []
            case .map(let value, _, _): [value]
            case .structs(_, let others, _, _, _): others
            }
        }
    }

    struct Property {
        var name: String
        var leaf: ParquetLeaf
        var role: Role
        var shape: Shape = .scalar
    }

    var geometry: ParquetLeaf?
    /// The geometry column in a native (GeoArrow) encoding, when it is one.
    var native: GeoArrowGeometry?
    var crs: String?
    var properties: [Property] = []

    /// The CRS a native GEOMETRY / GEOGRAPHY type's `crs` names (parquet-format's
    /// Geospatial.md): absent or empty is OGC:CRS84 (`nil`); `srid:N` is EPSG:N; `projjson:KEY`
    /// is the PROJJSON in the file's metadata under KEY; anything else is the CRS itself
    /// (PROJJSON text as DuckDB writes it, WKT2, `EPSG:n`), PROJJSON named by its id.
    static func crs(_ given: String, of file: ParquetFile, at: SourceLocation) throws(GeoConvError) -> String? {
        let text = String(given.drop { $0 == " " })
        if text.isEmpty { return nil }
        if text.lowercased().hasPrefix("srid:") { return "EPSG:" + text.dropFirst(5) }
        if text.lowercased().hasPrefix("projjson:") {
            let key = String(text.dropFirst(9))
            guard let value = file.metadata.keyValues.first(where: { $0.key == key })?.value,
                let json = JSONText.parse(value)
            else {
                throw GeoConvError(
                    .invalidInput,
                    "the geometry column's CRS is '\(text)', but the file's metadata has no PROJJSON under \"\(key)\"",
                    at: at, hint: "give the CRS with --s-srs")
            }
            return GeoParquetCRS.name(of: json)
        }
        if text.hasPrefix("{"), let json = JSONText.parse(text) { return GeoParquetCRS.name(of: json) }
        return text
    }

    init(_ file: ParquetFile, diagnostics: DiagnosticLog) throws(GeoConvError) {
        let leaves = try ParquetLeaf.leaves(of: file.metadata.schema, file: file.name)
        let at = SourceLocation(file: file.name, byteOffset: 0)
        var primary: String?
        var covering: Set<[String]> = []
        if let text = file.metadata.keyValues.first(where: { $0.key == "geo" })?.value {
            guard case .object(let geo)? = JSONText.parse(text), case .string(let name)? = geo["primary_column"],
                case .object(let columns)? = geo["columns"], case .object(let column)? = columns[name]
            else {
                throw GeoConvError(
                    .invalidInput, "the file's \"geo\" metadata names no primary column with a description", at: at,
                    hint: "GeoParquet metadata has primary_column and columns.<name>.encoding")
            }
            let encoding = column["encoding"]?.stringValue ?? "none"
            if encoding.uppercased() != "WKB" {
                let arrow = try GeoArrowGeometry(encoding, column: name, leaves: leaves, at: at)
                native = arrow
                if arrow.hasM {
                    try diagnostics.warn(
                        GeoParquetCode.mDropped, "M values are dropped: the model has no measures", at: at)
                }
            }
            primary = name
            if let value = column["crs"] {
                if case .null = value {
                    try diagnostics.warn(
                        GeoParquetCode.crsUnknown,
                        "the geometry column's CRS is given as null (unknown): its coordinates are read as WGS84 longitude/latitude",
                        at: at, hint: "give the CRS with --s-srs")
                } else if case .string(let s) = value {
                    crs = s
                } else {
                    crs = GeoParquetCRS.name(of: value)
                }
            }
            if case .object(let cover)? = column["covering"], case .object(let box)? = cover["bbox"] {
                for key in ["xmin", "ymin", "xmax", "ymax"] {
                    if case .array(let parts)? = box[key] { covering.insert(parts.compactMap(\.stringValue)) }
                }
            }
            let others = columns.keys.filter { $0 != name }
            if !others.isEmpty {
                try diagnostics.warn(
                    GeoParquetCode.secondaryGeometryAsHex,
                    "geometry columns besides the primary one (\(others.joined(separator: ", "))) are read as hex WKB properties",
                    at: at, hint: "a feature has one geometry; convert each column separately with a tool that picks it"
                )
            }
        } else if let native = leaves.first(where: { $0.path.count == 1 && $0.nativeCRS != nil }),
            let given = native.nativeCRS
        {
            // Parquet's own GEOMETRY / GEOGRAPHY logical type (GeoParquet 2.0, DuckDB, GDAL 3.12):
            // WKB in the CRS the type names.
            primary = native.path[0]
            crs = try Self.crs(given, of: file, at: at)
            if case .geometry(_, true) = native.element.annotation {
                diagnostics.note(
                    GeoParquetCode.geographyEdges,
                    "the column \"\(native.path[0])\" is a GEOGRAPHY: its edges are arcs on the sphere; they are read as the same vertices",
                    at: at)
            }
        } else {
            let names = ["geometry", "wkb_geometry", "geom", "the_geom"]
            primary =
                leaves.first { leaf in
                    leaf.path.count == 1 && leaf.element.type == .byteArray && names.contains(leaf.path[0].lowercased())
                }?.path[0]
            if let primary {
                diagnostics.note(
                    GeoParquetCode.noGeoMetadata,
                    "the file has no GeoParquet metadata: its binary column \"\(primary)\" is read as WKB in WGS84",
                    at: at)
            } else {
                try diagnostics.warn(
                    GeoParquetCode.noGeometry,
                    "the file has no GeoParquet metadata and no binary geometry column: the rows have no geometry",
                    at: at,
                    hint: "write it with geopandas or GDAL to give it a geometry column")
            }
        }
        var lists: [String] = []
        for leaf in leaves {
            if let primary, leaf.path == [primary] || (native != nil && leaf.path.first == primary) {
                if native == nil { geometry = leaf }
                continue
            }
            if covering.contains(leaf.path) { continue }
            if leaf.maxRepetition > 0 {
                // The list (map) is the group holding the first repeated node — or that node
                // itself when it is a field alone — named by its path (`tags`, `address.tags`,
                // as a struct's fields are), read once: at its first leaf.
                let listAt = leaf.repeated.firstIndex(of: true) ?? 0
                let prefix = Array(leaf.path.prefix(max(1, listAt)))
                let members = leaves.filter { $0.path.starts(with: prefix) }
                guard members.first?.index == leaf.index else { continue }
                if let shape = Self.shape(of: members, at: prefix.count - 1) {
                    properties.append(
                        Property(
                            name: prefix.joined(separator: "."), leaf: leaf, role: .property,
                            shape: shape))
                } else {
                    lists.append(prefix.joined(separator: "."))
                }
                continue
            }
            properties.append(Property(name: leaf.dottedName, leaf: leaf, role: .property))
        }
        // The title's and snippet's text columns, chosen as every reader chooses them.
        let names = properties.map(\.name)
        for role in [TitleProperties.Role.title, .snippet] {
            if let index = TitleProperties.columns(of: role, in: names).first(where: {
                properties[$0].leaf.element.annotation == .string
            }) {
                properties[index].role = role == .title ? .title : .snippet
            }
        }
        if !lists.isEmpty {
            try diagnostics.warn(
                GeoParquetCode.listColumnSkipped,
                "columns of nested lists, maps of structs or structs nested deeper "
                    + "(\(lists.joined(separator: ", "))) are not read",
                at: at, hint: "flatten them to text first (pyarrow: cast to string; DuckDB: to_json)")
        }
    }

    /// How the leaves under one list's (map's) group — `leaves`, the group the node at index
    /// `group` of their paths, at the top or inside a struct — make a list or a map of plain
    /// values, or a list of structs of plain fields, repeated once; `nil` for deeper nesting (a
    /// list of lists, a map of structs, a struct in a struct in a list). Lists: a LIST group of a
    /// repeated group of one value (`tags.list.element`), or of a repeated value (the legacy
    /// two-level form), or a repeated value alone at the top; of structs, a LIST group of a
    /// repeated group of a struct. Maps: a MAP group of a repeated group of a key and a value.
    static func shape(of leaves: [ParquetLeaf], at group: Int) -> Shape? {
        guard let first = leaves.first, leaves.allSatisfy({ $0.maxRepetition == 1 }),
            let repeatedAt = first.repeated.firstIndex(of: true), repeatedAt <= group + 1
        else { return nil }
        // The list's own level: where its group is defined (0 when it is a field alone at the top).
        let listDefinition = repeatedAt == 0 ? 0 : first.definitions[repeatedAt - 1]
        let entryDefinition = first.definitions[repeatedAt]
        let annotation = repeatedAt == 0 ? ParquetAnnotation.none : first.annotations[repeatedAt - 1]
        let depth = first.path.count - repeatedAt  // 1: the repeated node is the leaf; 2: it holds it
        switch leaves.count {
        case 1 where annotation != .map && depth <= 2 && (repeatedAt == 0 || annotation == .list):
            return .list(listDefinition: listDefinition, entryDefinition: entryDefinition)
        case 2 where annotation == .map && depth == 2 && leaves[1].path.count == first.path.count:
            return .map(value: leaves[1], listDefinition: listDefinition, entryDefinition: entryDefinition)
        default:
            // A LIST of a struct of plain fields (`sources.list.element.dataset`).
            guard annotation == .list, depth == 3,
                leaves.allSatisfy({
                    $0.path.count == first.path.count && $0.repeated.firstIndex(of: true) == repeatedAt
                })
            else { return nil }
            return .structs(
                names: leaves.map { $0.path.last ?? "" }, others: Array(leaves.dropFirst()),
                listDefinition: listDefinition, entryDefinition: entryDefinition,
                elementDefinition: first.definitions[repeatedAt + 1])
        }
    }
}
