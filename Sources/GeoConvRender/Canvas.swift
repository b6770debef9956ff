#if Rendering
// Built with the Rendering trait (Cairo, SQLite) only.
import GeoConvCore
import GeoConvFormatKit
internal import CCairo

/// A Cairo surface and its drawing context, in points (the scale applied once).
final class Canvas {
    let surface: OpaquePointer
    let context: OpaquePointer

    /// An image of `width` × `height` points at `scale` pixels per point.
    init(imageWidth width: Double, height: Double, scale: Double) throws(GeoConvError) {
        let pixelsWide = Int32(max(1, (width * scale).rounded()))
        let pixelsHigh = Int32(max(1, (height * scale).rounded()))
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pixelsWide, pixelsHigh),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else {
            throw GeoConvError(
                .limitExceeded, "cannot make a \(pixelsWide) × \(pixelsHigh) pixel picture",
                hint: "use a smaller --viewport or --scale")
        }
        self.surface = surface
        guard let context = cairo_create(surface) else {
            throw GeoConvError(.io, "Cairo could not make a drawing context")
        }
        self.context = context
        cairo_scale(context, scale, scale)
    }

    /// A vector surface (SVG or PDF) written to `path`, `width` × `height` points.
    init(vector format: RenderFormat, path: String, width: Double, height: Double) throws(GeoConvError) {
        let made: OpaquePointer? =
            format == .svg
            ? cairo_svg_surface_create(path, width, height) : cairo_pdf_surface_create(path, width, height)
        guard let surface = made, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw GeoConvError(.io, "cannot create '\(path)'", hint: "check that the folder exists and is writable")
        }
        self.surface = surface
        guard let context = cairo_create(surface) else {
            throw GeoConvError(.io, "Cairo could not make a drawing context")
        }
        self.context = context
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    func setColor(_ color: Color) {
        cairo_set_source_rgba(
            context, Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255, color.opacity)
    }

    func fillBackground(_ color: Color) {
        setColor(color)
        cairo_paint(context)
    }

    /// Adds a polyline (or a closed ring) to the current path.
    func add(_ points: [(x: Double, y: Double)], closed: Bool) {
        guard let first = points.first else { return }
        cairo_move_to(context, first.x, first.y)
        for p in points.dropFirst() { cairo_line_to(context, p.x, p.y) }
        if closed { cairo_close_path(context) }
    }

    func stroke(width: Double, color: Color, roundCaps: Bool = true) {
        setColor(color)
        cairo_set_line_width(context, width)
        cairo_set_line_cap(context, roundCaps ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT)
        cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
        cairo_stroke(context)
    }

    /// Fills the current path (holes by the even-odd rule), keeping it for a stroke.
    func fillPreserve(_ color: Color) {
        setColor(color)
        cairo_set_fill_rule(context, CAIRO_FILL_RULE_EVEN_ODD)
        cairo_fill_preserve(context)
    }

    func clearPath() { cairo_new_path(context) }

    /// The default marker: a pin whose tip is at `tip`, 27 × 43 points as the Maps SDK's.
    func pin(at tip: (x: Double, y: Double), color: Color, anchor: Anchor?) {
        let width = 27.0
        let height = 43.0
        let anchorX = anchor?.x ?? 0.5
        let anchorY = anchor?.y ?? 1
        let left = tip.x - anchorX * width
        let top = tip.y - anchorY * height
        let cx = left + width / 2
        let cy = top + width / 2
        let r = width / 2
        cairo_new_path(context)
        cairo_arc(context, cx, cy, r, Double.pi * 0.8, Double.pi * 2.2)
        cairo_line_to(context, left + width / 2, top + height)
        cairo_close_path(context)
        // The outline and the dot in a darker shade of the pin's colour, as the SDK's pins.
        let dark = Color(
            red: UInt8(Double(color.red) * 0.55), green: UInt8(Double(color.green) * 0.55),
            blue: UInt8(Double(color.blue) * 0.55), opacity: color.opacity)
        setColor(color)
        cairo_fill_preserve(context)
        setColor(dark)
        cairo_set_line_width(context, 1)
        cairo_stroke(context)
        cairo_arc(context, cx, cy, r * 0.35, 0, 2 * Double.pi)
        setColor(dark)
        cairo_fill(context)
    }

    /// A legend in the bottom-left corner, `height` points tall picture: the property's name,
    /// then a swatch, label and count for each class (and `other`), on a white panel.
    func legend(_ legend: ClassLegend, height: Double) {
        var rows = legend.entries.map { (color: $0.color, text: "\($0.label) (\($0.count))") }
        if let other = legend.other { rows.append((other.color, "\(other.label) (\(other.count))")) }
        let margin = 8.0
        let padding = 6.0
        let line = 16.0
        let swatch = 12.0
        cairo_select_font_face(context, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cairo_set_font_size(context, 11)
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, legend.property, &extents)
        var width = extents.x_advance
        cairo_select_font_face(context, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        for row in rows {
            cairo_text_extents(context, row.text, &extents)
            width = max(width, swatch + 6 + extents.x_advance)
        }
        let panelWidth = width + 2 * padding
        let panelHeight = Double(rows.count + 1) * line + 2 * padding
        let top = height - margin - panelHeight
        cairo_new_path(context)
        cairo_rectangle(context, margin, top, panelWidth, panelHeight)
        setColor(Color(red: 255, green: 255, blue: 255, opacity: 0.9))
        cairo_fill_preserve(context)
        setColor(Color(red: 0x9E, green: 0x9E, blue: 0x9E))
        cairo_set_line_width(context, 1)
        cairo_stroke(context)
        setColor(Color(red: 0x21, green: 0x21, blue: 0x21))
        cairo_select_font_face(context, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cairo_move_to(context, margin + padding, top + padding + 12)
        cairo_show_text(context, legend.property)
        cairo_select_font_face(context, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        for (index, row) in rows.enumerated() {
            let y = top + padding + Double(index + 1) * line
            cairo_new_path(context)
            cairo_rectangle(context, margin + padding, y + 2, swatch, swatch)
            setColor(row.color)
            cairo_fill_preserve(context)
            setColor(Color(red: 0x61, green: 0x61, blue: 0x61))
            cairo_set_line_width(context, 0.5)
            cairo_stroke(context)
            setColor(Color(red: 0x21, green: 0x21, blue: 0x21))
            cairo_move_to(context, margin + padding + swatch + 6, y + 12)
            cairo_show_text(context, row.text)
        }
    }

    /// A cluster bubble: a disc in `color` with a white ring and the `label` in white.
    func bubble(at centre: (x: Double, y: Double), radius: Double, color: Color, label: String) {
        cairo_new_path(context)
        cairo_arc(context, centre.x, centre.y, radius, 0, 2 * Double.pi)
        setColor(color)
        cairo_fill_preserve(context)
        setColor(Color(red: 255, green: 255, blue: 255, opacity: 0.9))
        cairo_set_line_width(context, 3)
        cairo_stroke(context)
        cairo_select_font_face(context, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cairo_set_font_size(context, radius * 0.8)
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, label, &extents)
        // A long label ("100+", "1000+") is set smaller so that it stays inside the ring:
        // at most 1.4 radii wide, a margin of 0.3 radii on either side.
        let widest = radius * 1.4
        if extents.width > widest {
            cairo_set_font_size(context, radius * 0.8 * widest / extents.width)
            cairo_text_extents(context, label, &extents)
        }
        cairo_move_to(
            context, centre.x - extents.width / 2 - extents.x_bearing, centre.y - extents.height / 2 - extents.y_bearing
        )
        setColor(Color(red: 255, green: 255, blue: 255))
        cairo_show_text(context, label)
    }

    /// Draws a PNG image with its `anchor` at `point`; false when it cannot be read.
    func image(at point: (x: Double, y: Double), pngPath: String, anchor: Anchor?, scale: Double) -> Bool {
        guard let image = cairo_image_surface_create_from_png(pngPath) else { return false }
        defer { cairo_surface_destroy(image) }
        guard cairo_surface_status(image) == CAIRO_STATUS_SUCCESS else { return false }
        let w = Double(cairo_image_surface_get_width(image)) * scale
        let h = Double(cairo_image_surface_get_height(image)) * scale
        cairo_save(context)
        cairo_translate(context, point.x - (anchor?.x ?? 0.5) * w, point.y - (anchor?.y ?? 1) * h)
        cairo_scale(context, scale, scale)
        cairo_set_source_surface(context, image, 0, 0)
        cairo_paint(context)
        cairo_restore(context)
        return true
    }

    /// Writes an image surface as PNG.
    func writePNG(to path: String) throws(GeoConvError) {
        cairo_surface_flush(surface)
        guard cairo_surface_write_to_png(surface, path) == CAIRO_STATUS_SUCCESS else {
            throw GeoConvError(.io, "cannot write '\(path)'", hint: "check that the folder exists and is writable")
        }
    }

    /// The image as PNG bytes, encoded for speed (`PNGEncoder`).
    func pngData() throws(GeoConvError) -> [UInt8] {
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface)) / 4
        guard let data = cairo_image_surface_get_data(surface) else { throw GeoConvError(.io, "Cairo gave no pixels") }
        let pixels = UnsafeBufferPointer(
            start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt32.self), count: stride * height)
        return try PNGEncoder.encode(argb: pixels, width: width, height: height, stride: stride)
    }

    /// The image as PNG bytes through Cairo's own writer (libpng's defaults).
    func cairoPNGData() throws(GeoConvError) -> [UInt8] {
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        cairo_surface_flush(surface)
        let status = cairo_surface_write_to_png_stream(
            surface,
            { closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
                Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().bytes.append(
                    contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(sink).toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else { throw GeoConvError(.io, "Cairo could not encode a PNG") }
        return sink.bytes
    }

    /// Whether every pixel of an image surface is fully transparent.
    func isClear() -> Bool {
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return true }
        for row in 0..<height {
            let line = UnsafeRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
            for column in 0..<width where line[column] >> 24 != 0 { return false }
        }
        return true
    }

    /// Finishes a vector surface (writes the file).
    func finish() throws(GeoConvError) {
        cairo_surface_finish(surface)
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw GeoConvError(.io, "Cairo could not finish the picture")
        }
    }

    /// An image surface's pixels as 0xAARRGGBB (premultiplied alpha), row by row.
    func pixels() -> (width: Int, height: Int, argb: [UInt32]) {
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return (width, height, []) }
        var result = [UInt32](repeating: 0, count: width * height)
        for row in 0..<height {
            let line = UnsafeRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
            for column in 0..<width { result[row * width + column] = line[column] }
        }
        return (width, height, result)
    }
}
#endif
