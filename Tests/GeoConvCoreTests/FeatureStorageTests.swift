import GeoConvCore
import Testing

/// A feature's fields live in one copy-on-write box: copies share it until one changes.
@Suite("Feature storage")
struct FeatureStorageTests {
    static func sample() -> Feature {
        Feature(
            id: .string("a-1"), geometry: .point(Coordinate(latitude: 47.5, longitude: 8.25)), title: "Summit",
            snippet: "<b>view</b>", properties: ["height": .number(JSONNumber(Int(2_504))), "kind": .string("peak")],
            foreignMembers: ["extra": .bool(true)])
    }

    @Test("A feature is one reference: copying it copies no field")
    func oneReference() {
        #expect(MemoryLayout<Feature>.size == MemoryLayout<UnsafeRawPointer>.size)
    }

    @Test("Changing a copy's fields leaves the original's as they were, field by field")
    func copyOnWrite() throws {
        let original = Self.sample()
        var copy = original
        copy.title = "Peak"
        copy.properties["height"] = .number(JSONNumber(Int(2_505)))
        copy.properties["new"] = .null
        copy.foreignMembers = [:]
        copy.geometry = .point(Coordinate(latitude: 0, longitude: 0))
        copy.style.strokeColor = .red
        copy.id = nil
        copy.sourceForm = .nullProperties
        #expect(original.title == "Summit")
        #expect(original.properties.keys.map { $0 } == ["height", "kind"])
        #expect(original.properties["height"] == .number(JSONNumber(Int(2_504))))
        #expect(original.foreignMembers["extra"] == .bool(true))
        #expect(original.geometry == .point(Coordinate(latitude: 47.5, longitude: 8.25)))
        #expect(original.style.isEmpty)
        #expect(original.id == .string("a-1"))
        #expect(original.sourceForm == [])
        #expect(copy.title == "Peak")
        #expect(copy.properties.keys.map { $0 } == ["height", "kind", "new"])
        #expect(copy.properties["height"] == .number(JSONNumber(Int(2_505))))
        #expect(copy.style.strokeColor == .red)
        #expect(copy.sourceForm == .nullProperties)
        #expect(copy != original)
    }

    @Test("Features made apart with the same fields are equal and hash alike; any one field tells them apart")
    func equality() {
        let a = Self.sample()
        let b = Self.sample()
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        var changes: [(inout Feature) -> Void] = []
        changes.append { $0.id = .number(JSONNumber(Int(1))) }
        changes.append { $0.sourceForm = .nullProperties }
        changes.append { $0.geometry = nil }
        changes.append { $0.title = nil }
        changes.append { $0.snippet = "other" }
        changes.append { $0.style.zIndex = 2 }
        changes.append { $0.properties["kind"] = .string("hill") }
        changes.append { $0.foreignMembers = [:] }
        for change in changes {
            var changed = b
            change(&changed)
            #expect(changed != a)
        }
    }

    @Test("Printed, a feature shows its fields, not its box")
    func printed() {
        let text = String(describing: Feature(geometry: nil, title: "Summit", properties: ["kind": "peak"]))
        #expect(text.hasPrefix("Feature(id: nil, sourceForm: "))
        #expect(text.contains("title: Optional(\"Summit\")"))
        #expect(text.contains("\"kind\""))
        #expect(!text.contains("Storage"))
    }

    @Test("A feature borrowed from memory is the one held there, and a kept copy outlives the memory")
    func borrowed() throws {
        var kept: Feature?
        do {
            var features = [Self.sample(), Feature(geometry: nil, title: "second")]
            features[1].properties["n"] = .number(JSONNumber(Int(7)))
            features.withUnsafeBufferPointer { buffer in
                #expect(buffer.withBorrowedFeature(at: 0) { $0.title } == "Summit")
                buffer.withBorrowedFeature(at: 1) { kept = $0 }
            }
            features.removeAll()
        }
        let second = try #require(kept)
        #expect(second.title == "second")
        #expect(second.properties["n"] == .number(JSONNumber(Int(7))))
        #expect(second.geometry == nil)
    }
}
