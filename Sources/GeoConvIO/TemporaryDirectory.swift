package import Foundation
package import GeoConvCore

/// A temporary directory removed with its contents when no longer needed — or when a
/// signal ends the process (`TemporaryFiles`, told the names of the files it will hold):
/// a KMZ's `doc.kml` and archive being written, a shapefile's parts.
package final class TemporaryDirectory {
    /// The directory.
    package let url: URL
    private let slot: Int?

    /// Creates the directory in `TMPDIR`, or in `parent` (the output's folder, so that its
    /// files can be renamed into place).
    package init(holding files: [String], in parent: String? = nil) throws(GeoConvError) {
        let base = parent.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? FileManager.default.temporaryDirectory
        url = base.appendingPathComponent(
            parent == nil ? "geoconv-\(UUID().uuidString)" : ".geoconv-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(
                at: url, withIntermediateDirectories: false,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw GeoConvError(
                .io, "cannot create a temporary directory in \(base.path): \(error)",
                hint: parent == nil
                    ? "set TMPDIR to a writable directory" : "check that the output's folder is writable")
        }
        slot = TemporaryFiles.register(url.path, files: files)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
        if let slot { TemporaryFiles.unregister(slot) }
    }
}
