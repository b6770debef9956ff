import ArgumentParser
import Foundation
import GeoConv

/// `--where`, `--select`, `--bbox`, `--bbox-srs`, `--limit`, `--explode-collections` and
/// `--dim`: ogr2ogr's `-where`, `-select`, `-spat`, `-spat_srs`, `-limit`,
/// `-explodecollections` and `-dim`, for every command that reads features through the
/// pipeline (docs/cli.md, "Choosing what to convert").
struct SelectionOptions: ParsableArguments {
    @Option(
        name: .customLong("where"), parsing: .unconditional,
        help: ArgumentHelp(
            "Keep the features matching this OGR SQL condition (ogr2ogr -where), e.g. \"kind = 'park' AND area > 1000\".",
            valueName: "expression"))
    var whereClause: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Keep only these properties, in this order (ogr2ogr -select); name/title and description/snippet keep the title and snippet.",
            valueName: "a,b,c"))
    var select: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Keep the features whose geometry intersects this box, in the input's CRS unless --bbox-srs (ogr2ogr -spat); W > E crosses the antimeridian.",
            valueName: "W,S,E,N"))
    var bbox: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The CRS --bbox is given in (ogr2ogr -spat_srs).", valueName: "crs"))
    var bboxSrs: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Write at most N features and stop reading there (ogr2ogr -limit).", valueName: "N"))
    var limit: Int?

    @Flag(help: "One feature per part of each multi-geometry or collection (ogr2ogr -explodecollections).")
    var explodeCollections = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "2 (or XY) drops altitudes; 3 (or XYZ) gives every position one, 0 where missing (ogr2ogr -dim).",
            valueName: "2|3"))
    var dim: String?

    func validate() throws {
        _ = try selection
    }

    /// The selection, once `validate()` has passed (ArgumentParser runs it before `run()`).
    var validated: FeatureSelection { (try? selection) ?? FeatureSelection() }

    /// The selection as the library takes it.
    var selection: FeatureSelection {
        get throws {
            var selection = FeatureSelection()
            selection.whereClause = whereClause
            selection.properties = select.map { list in
                list.split(separator: ",", omittingEmptySubsequences: true).map {
                    String($0.trimmingCharacters(in: .whitespaces))
                }
            }
            if let bbox {
                let values = bbox.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard values.count == 4, values.allSatisfy(\.isFinite), values[1] <= values[3] else {
                    throw ValidationError(
                        "--bbox '\(bbox)' is not W,S,E,N: four numbers, south ≤ north (west > east crosses the antimeridian)"
                    )
                }
                selection.boundingBox = FeatureSelection.Box(
                    west: values[0], south: values[1], east: values[2], north: values[3])
            }
            selection.boundingBoxCRS = bboxSrs
            if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
            selection.limit = limit
            selection.explodesCollections = explodeCollections
            switch dim?.uppercased() {
            case nil: break
            case "2", "XY": selection.dimension = .xy
            case "3", "XYZ": selection.dimension = .xyz
            case let other?: throw ValidationError("--dim '\(other)' is not 2, 3, XY or XYZ")
            }
            return selection
        }
    }
}
