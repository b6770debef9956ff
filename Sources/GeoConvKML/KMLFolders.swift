import GeoConvCore

/// Where the element reader is among the document's Documents and Folders: the containers
/// open around it, the `geoconv:folder` value of the features read here, and what tells a
/// Folder from a sibling of the same name. A run's reader starts from a copy.
struct KMLFolders {
    /// One open Document or Folder: whether it is a Folder (a Document inside the first one
    /// counts as one), its name once read, and how many features it holds so far.
    struct Container {
        var isFolder: Bool
        var name: String?
        var features: Int
    }

    /// The containers open, the outermost first.
    private(set) var open: [Container] = []
    /// Whether the first Document has been met (a later one is a Folder).
    private(set) var sawDocument = false
    /// `geoconv:folder` for the features here, made once per change of a container's place
    /// or name (`folderValue()`).
    private var cache: (value: JSONValue?, isValid: Bool) = (nil, false)
    /// The last Folder closed that held features: its depth (containers around it), its name
    /// and the document's feature count then, to tell a sibling of the same name that comes
    /// straight after.
    private var closedFolder: (depth: Int, name: String?, featuresMet: Int)?

    /// The innermost container, if any.
    var current: Container? { open.last }
    /// How many containers are open.
    var depth: Int { open.count }

    /// A Document or Folder starts; returns whether it is a Folder.
    mutating func start(_ element: String, isEmpty: Bool) -> Bool {
        let isFolder = element == "Folder" || sawDocument
        if element == "Document" { sawDocument = true }
        if !isEmpty {
            open.append(Container(isFolder: isFolder, name: nil, features: 0))
            cache.isValid = false
        }
        return isFolder
    }

    /// The innermost container ends, `featuresMet` features into the document; returns it.
    mutating func end(featuresMet: Int) -> Container? {
        guard let container = open.popLast() else { return nil }
        cache.isValid = false
        if !open.isEmpty { open[open.count - 1].features += container.features }
        if container.isFolder, container.features > 0 {
            closedFolder = (open.count, container.name, featuresMet)
        }
        return container
    }

    /// The innermost container is named `name`, `featuresMet` features into the document;
    /// returns whether it is a Folder named as the sibling Folder just before it, with no
    /// feature between them (folders are rebuilt from each feature's path, which cannot tell
    /// the two apart).
    mutating func name(_ name: String, featuresMet: Int) -> Bool {
        guard !open.isEmpty else { return false }
        open[open.count - 1].name = name
        cache.isValid = false
        guard let closed = closedFolder, open[open.count - 1].isFolder else { return false }
        return closed.depth == open.count - 1 && closed.name == name && closed.featuresMet == featuresMet
    }

    /// `count` more features in the innermost container.
    mutating func count(_ count: Int = 1) {
        if !open.isEmpty { open[open.count - 1].features += count }
    }

    /// `geoconv:folder` for a feature here: the Folders' names, outermost first; `nil` outside any.
    mutating func folderValue() -> JSONValue? {
        if cache.isValid { return cache.value }
        let path = open.filter(\.isFolder).map { JSONValue.string($0.name ?? "") }
        cache = (path.isEmpty ? nil : .array(path), true)
        return cache.value
    }

    /// A copy for a run's reader, its `geoconv:folder` value to be made again.
    var forRun: KMLFolders {
        var copy = self
        copy.cache.isValid = false
        return copy
    }
}
