#if GeoPackage
/// The SQL of a GeoPackage 1.3's tables, as the standard (OGC 12-128r18) gives them: the
/// required ones, the schema extension's data columns, and a feature table's R-tree index
/// and the triggers that keep it (§F.3).
enum GeoPackageSchema {
    /// `GPKG`, at byte 68 of the file.
    static let applicationID: Int32 = 0x4750_4B47
    /// 1.3.0.
    static let userVersion = 10300

    static let required = """
        CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER NOT NULL PRIMARY KEY,
          organization TEXT NOT NULL, organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL,
          description TEXT);
        CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL,
          identifier TEXT UNIQUE, description TEXT DEFAULT '',
          last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
          min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER,
          CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
        CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL,
          geometry_type_name TEXT NOT NULL, srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL,
          CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name),
          CONSTRAINT uk_gc_table_name UNIQUE (table_name),
          CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
          CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
        CREATE TABLE gpkg_extensions (table_name TEXT, column_name TEXT, extension_name TEXT NOT NULL,
          definition TEXT NOT NULL, scope TEXT NOT NULL,
          CONSTRAINT ge_tce UNIQUE (table_name, column_name, extension_name));
        INSERT INTO gpkg_spatial_ref_sys VALUES ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined',
          'undefined cartesian coordinate reference system');
        INSERT INTO gpkg_spatial_ref_sys VALUES ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined',
          'undefined geographic coordinate reference system');
        INSERT INTO gpkg_spatial_ref_sys VALUES ('WGS 84 geodetic', 4326, 'EPSG', 4326, '\(wgs84)',
          'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid');
        """

    /// WGS 84 as OGC WKT 1 (EPSG:4326), the definition GeoPackage's own example gives.
    static let wgs84 =
        #"GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],"#
        + #"AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],"#
        + #"UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],"#
        + #"AXIS["Longitude",EAST],AUTHORITY["EPSG","4326"]]"#

    /// The schema extension's table of column descriptions (a JSON column's MIME type).
    static let dataColumns = """
        CREATE TABLE gpkg_data_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL, name TEXT,
          title TEXT, description TEXT, mime_type TEXT, constraint_name TEXT,
          CONSTRAINT pk_gdc PRIMARY KEY (table_name, column_name),
          CONSTRAINT gdc_tn UNIQUE (table_name, name));
        CREATE TABLE gpkg_data_column_constraints (constraint_name TEXT NOT NULL, constraint_type TEXT NOT NULL,
          value TEXT, min NUMERIC, min_is_inclusive BOOLEAN, max NUMERIC, max_is_inclusive BOOLEAN,
          description TEXT, CONSTRAINT gdcc_ntv UNIQUE (constraint_name, constraint_type, value));
        INSERT INTO gpkg_extensions VALUES ('gpkg_data_columns', NULL, 'gpkg_schema',
          'http://www.geopackage.org/spec/#extension_schema', 'read-write');
        INSERT INTO gpkg_extensions VALUES ('gpkg_data_column_constraints', NULL, 'gpkg_schema',
          'http://www.geopackage.org/spec/#extension_schema', 'read-write');
        """

    /// `name` quoted as an SQL identifier.
    static func quoted(_ name: String) -> String { "\"" + name.replacing("\"", with: "\"\"") + "\"" }

    /// `text` quoted as an SQL string.
    static func literal(_ text: String) -> String { "'" + text.replacing("'", with: "''") + "'" }

    /// The R-tree of `table`'s `column` and its entry in `gpkg_extensions`.
    static func rtree(_ table: String, _ column: String) -> String {
        """
        CREATE VIRTUAL TABLE \(quoted("rtree_\(table)_\(column)")) USING rtree(id, minx, maxx, miny, maxy);
        INSERT INTO gpkg_extensions VALUES (\(literal(table)), \(literal(column)), 'gpkg_rtree_index',
          'http://www.geopackage.org/spec/#extension_rtree', 'write-only');
        """
    }

    /// The triggers that keep the R-tree of `table`'s `column` (key `fid`) when rows change,
    /// made after the rows are in (they call the ST_ functions a GeoPackage library provides).
    static func rtreeTriggers(_ table: String, _ column: String, key: String = "fid") -> String {
        let t = quoted(table)
        let c = quoted(column)
        let i = quoted(key)
        let r = quoted("rtree_\(table)_\(column)")
        func name(_ suffix: String) -> String { quoted("rtree_\(table)_\(column)_\(suffix)") }
        let values = "(NEW.\(i), ST_MinX(NEW.\(c)), ST_MaxX(NEW.\(c)), ST_MinY(NEW.\(c)), ST_MaxY(NEW.\(c)))"
        return """
            CREATE TRIGGER \(name("insert")) AFTER INSERT ON \(t)
              WHEN (new.\(c) NOT NULL AND NOT ST_IsEmpty(NEW.\(c)))
              BEGIN INSERT OR REPLACE INTO \(r) VALUES \(values); END;
            CREATE TRIGGER \(name("update1")) AFTER UPDATE OF \(c) ON \(t)
              WHEN OLD.\(i) = NEW.\(i) AND (NEW.\(c) NOTNULL AND NOT ST_IsEmpty(NEW.\(c)))
              BEGIN INSERT OR REPLACE INTO \(r) VALUES \(values); END;
            CREATE TRIGGER \(name("update2")) AFTER UPDATE OF \(c) ON \(t)
              WHEN OLD.\(i) = NEW.\(i) AND (NEW.\(c) ISNULL OR ST_IsEmpty(NEW.\(c)))
              BEGIN DELETE FROM \(r) WHERE id = OLD.\(i); END;
            CREATE TRIGGER \(name("update3")) AFTER UPDATE ON \(t)
              WHEN OLD.\(i) != NEW.\(i) AND (NEW.\(c) NOTNULL AND NOT ST_IsEmpty(NEW.\(c)))
              BEGIN DELETE FROM \(r) WHERE id = OLD.\(i); INSERT OR REPLACE INTO \(r) VALUES \(values); END;
            CREATE TRIGGER \(name("update4")) AFTER UPDATE ON \(t)
              WHEN OLD.\(i) != NEW.\(i) AND (NEW.\(c) ISNULL OR ST_IsEmpty(NEW.\(c)))
              BEGIN DELETE FROM \(r) WHERE id IN (OLD.\(i), NEW.\(i)); END;
            CREATE TRIGGER \(name("delete")) AFTER DELETE ON \(t) WHEN old.\(c) NOT NULL
              BEGIN DELETE FROM \(r) WHERE id = OLD.\(i); END;
            """
    }
}
#endif
