import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

@Suite("geoconv command line (runs the built binary)")
struct CLITests {
    @Test("polyline decode prints lat,lng lines; encode gives the string back")
    func decodeEncode() throws {
        let decoded = try CLI.run(["polyline", "decode", "_p~iF~ps|U_ulLnnqC_mqNvxq`@"])
        #expect(decoded.status == 0)
        #expect(decoded.stdout == "38.5,-120.2\n40.7,-120.95\n43.252,-126.453\n")
        let encoded = try CLI.run(["polyline", "encode", "38.5,-120.2", "40.7,-120.95", "43.252,-126.453"])
        #expect(encoded.stdout == "_p~iF~ps|U_ulLnnqC_mqNvxq`@\n")
        let separated = try CLI.run([
            "polyline", "encode", "--precision", "6", "--", "40.714701,-73.990171",
            "40.717571,-73.991801", "40.715651,-73.985751",
        ])
        #expect(separated.stdout == "y{_tlAt`_clCkrDzdB~vBcyJ\n")
    }

    @Test("decode --format wkt and geojson")
    func decodeFormats() throws {
        let wkt = try CLI.run(["polyline", "decode", "--format", "wkt", "_p~iF~ps|U_ulLnnqC_mqNvxq`@", "_p~iF~ps|U"])
        #expect(wkt.stdout == "LINESTRING (-120.2 38.5,-120.95 40.7,-126.453 43.252)\nPOINT (-120.2 38.5)\n")
        let geojson = try CLI.run([
            "polyline", "decode", "--format", "geojson", "--precision", "6", "y{_tlAt`_clCkrDzdB~vBcyJ",
        ])
        #expect(
            geojson.stdout
                == #"{"type":"LineString","coordinates":[[-73.990171,40.714701],[-73.991801,40.717571],[-73.985751,40.715651]]}"#
                + "\n")
    }

    @Test("Standard input: encode lat,lng lines, decode one path per line")
    func standardInput() throws {
        let encoded = try CLI.run(
            ["polyline", "encode"], stdin: "38.5,-120.2\n40.7 -120.95\n\n# next\n43.252,-126.453\n")
        #expect(encoded.stdout == "_p~iF~ps|U_ulLnnqC\n_t~fGfzxbW\n")
        let decoded = try CLI.run(["polyline", "decode"], stdin: "_p~iF~ps|U\r\n\n _t~fGfzxbW\t\n")
        #expect(decoded.stdout == "38.5,-120.2\n\n43.252,-126.453\n")
        let bad = try CLI.run(["polyline", "decode"], stdin: "_p~iF~ps|U\n  _p~i!\n")
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("<stdin>:2:7: error: character '!' (33)"))
    }

    @Test("Exit codes: 1 for bad input, 64 for usage")
    func exitCodes() throws {
        let truncated = try CLI.run(["polyline", "decode", "_p~iF~ps|U_ulLnnqC_mqNvxq`"])
        #expect(truncated.status == 1)
        #expect(truncated.stderr.contains("byte 26: error: the encoded polyline ends inside a value"))
        #expect(try CLI.run(["polyline", "encode", "north,west"]).status == 1)
        #expect(try CLI.run(["polyline", "encode", "--precision", "14", "1,2"]).status == 64)
        #expect(try CLI.run(["polyline", "decode", "--format", "kml", "??"]).status == 64)
        #expect(try CLI.run(["convert", "only-one-argument"]).status == 64)
        let unknown = try CLI.run(["a.polyline", "b.unknownext"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("cannot tell the output format"))
    }

    @Test("Out-of-range coordinates warn, and fail with --strict")
    func outOfRange() throws {
        let warned = try CLI.run(["polyline", "encode", "130.252,-126.453"])
        #expect(warned.status == 0)
        #expect(warned.stderr.contains("warning: 130.252,-126.453 is outside latitude ±90"))
        #expect(try CLI.run(["polyline", "encode", "--strict", "130.252,-126.453"]).status == 1)
        // A step beyond 360° would make a polyline no decoder reads: refused (found by the round-trip fuzzer).
        let refused = try CLI.run(["polyline", "encode", "430.252,-126.453"])
        #expect(
            refused.status == 1 && refused.stderr.contains("is more than 360° from the one before"), "\(refused.stderr)"
        )
        let swapped = try CLI.run(["polyline", "encode", "151.2,-33.8"])
        #expect(swapped.stderr.contains("looks like longitude,latitude"))
    }

    @Test(
        "Every command that reads a file takes the formats' input options (--polyline-precision), checked once for all")
    func inputOptionGroup() throws {
        let directory = try Fixtures.temporaryDirectory()
        let file = directory.appendingPathComponent("line.txt").path
        try "_p~iF~ps|U_ulLnnqC_mqNvxq`@\n".write(toFile: file, atomically: true, encoding: .utf8)
        let five = try CLI.run([
            "camera", file, "--from", "polyline", "--polyline-precision", "5", "--viewport", "390x844",
        ])
        let six = try CLI.run([
            "camera", file, "--from", "polyline", "--polyline-precision", "6", "--viewport", "390x844",
        ])
        #expect(five.stdout.hasPrefix("target 40.9186830845"), "\(five.stdout)\(five.stderr)")
        #expect(six.stdout.hasPrefix("target 4.0876352068"), "\(six.stdout)\(six.stderr)")
        for command in ["info", "validate", "measure", "camera", "render"] {
            let bad = try CLI.run([command, file, "--polyline-precision", "14"])
            #expect(
                bad.status == 64 && bad.stderr.contains("--polyline-precision takes 0…13"),
                "\(command): \(bad.stderr)")
        }
    }

    @Test("--from and --to take a format's name or alias; an unknown one is a usage error listing the formats")
    func formatNames() throws {
        let unknown = try CLI.run(["-", "-", "--from", "wkt", "--to", "mapinfo"], stdin: "POINT (1 2)\n")
        #expect(unknown.status == 64)
        // Every registered format is listed, from the registry.
        #expect(unknown.stderr.contains("The value 'mapinfo' is invalid for '--to <format>'"), "\(unknown.stderr)")
        for format in FormatRegistry.standard.formats {
            #expect(unknown.stderr.contains("- \(format.name)\n"), "\(unknown.stderr)")
        }
        let badInput = try CLI.run(["info", "-", "--from", "tab"], stdin: "POINT (1 2)\n")
        #expect(
            badInput.status == 64 && badInput.stderr.contains("The value 'tab' is invalid for '--from <format>'"),
            "\(badInput.stderr)")
        let alias = try CLI.run(["-", "-", "--from", "WKT", "--to", "wkb-hex"], stdin: "POINT (1 2)\n")
        #expect(
            alias.status == 0 && alias.stdout == "0101000000000000000000F03F0000000000000040\n",
            "\(alias.stdout) \(alias.stderr)")
    }

    @Test("geoconv IN OUT converts; a failure leaves the old output; --strict refuses loss")
    func convert() throws {
        let directory = try Fixtures.temporaryDirectory()
        let sample = Fixtures.testdata("polyline/sydney.polyline")
        let six = directory.appendingPathComponent("sydney.polyline6").path
        let result = try CLI.run([sample, six])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let back = try CLI.run(["convert", six, "-", "--to", "polyline"])
        let original = try String(contentsOfFile: sample, encoding: .utf8)
        #expect(
            back.stdout == original.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n") + "\n")

        let converted = try String(contentsOfFile: six, encoding: .utf8)
        let bad = directory.appendingPathComponent("bad.polyline").path
        try "_p~iF~ps|U\n(_p~iF~ps|U\n".write(toFile: bad, atomically: false, encoding: .utf8)
        let failed = try CLI.run([bad, six])
        #expect(failed.status == 1)
        #expect(failed.stderr.hasPrefix("\(bad):2:12: error: '(' at column 1 is never closed"))
        #expect(try String(contentsOfFile: six, encoding: .utf8) == converted)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
                "bad.polyline", "sydney.polyline6",
            ])

        // Precision 6 → 5 rounds coordinates: a warning, and an error under --strict.
        let precise = directory.appendingPathComponent("precise.polyline6").path
        try "y{_tlAt`_clCkrDzdB~vBcyJ\n".write(toFile: precise, atomically: false, encoding: .utf8)
        let rounded = try CLI.run([precise, directory.appendingPathComponent("coarse.polyline").path])
        #expect(rounded.status == 0)
        #expect(rounded.stderr.contains("coordinates are rounded to 5 decimals"))
        let strict = try CLI.run([precise, directory.appendingPathComponent("strict.polyline").path, "--strict"])
        #expect(strict.status == 1)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("strict.polyline").path))

        let same = try CLI.run([six, six])
        #expect(same.status == 64)
        #expect(same.stderr.contains("is the input file"))
    }

    @Test("--version names the linked libraries")
    func version() throws {
        let result = try CLI.run(["--version"])
        #expect(result.stdout.hasPrefix("geoconv "))
        #expect(result.stdout.contains("libxml2 2."))
        #expect(
            result.stdout.contains(BuiltTraits.proj ? "PROJ " : "without PROJ: WGS84 and Web Mercator only"),
            "\(result.stdout)")
    }
}
