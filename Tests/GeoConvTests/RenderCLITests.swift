#if Rendering
// Built with the Rendering trait (Cairo, SQLite) only.
import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// `geoconv render` on the command line (the renderer's own tests are in GeoConvRenderTests).
@Suite("Rendering from the command line")
struct RenderCLITests {
    @Test("geoconv render writes PNG, SVG and PDF, fitted to the data, and reports what it cannot draw")
    func commandLine() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = Fixtures.testdata("render/sydney-overlays.geojson")
        for (ext, magic) in [
            ("png", [0x89, 0x50, 0x4E, 0x47]), ("svg", Array("<?xml".utf8).map(Int.init)),
            ("pdf", Array("%PDF".utf8).map(Int.init)),
        ] {
            let output = directory.appendingPathComponent("out.\(ext)").path
            let result = try CLI.run(["render", input, output, "--viewport", "320x240"])
            #expect(result.status == 0, "\(ext): \(result.stderr)")
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
            #expect(Array(bytes.prefix(magic.count)).map(Int.init) == magic, "\(ext)")
        }
        let bad = try CLI.run(["render", input, directory.appendingPathComponent("out.gif").path])
        #expect(bad.status == 64)
    }
}
#endif
