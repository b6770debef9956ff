#if Rendering
// Built with the Rendering trait (Cairo, SQLite) only.
import GeoConvCore

/// The pieces of a line of `segments` segments that style spans colour: each span covers
/// its (fractional) number of segments from where the one before ends, the last one the
/// rest of the line (as the Maps SDK does); a solid span is one piece, a gradient one
/// piece per sixteenth of a segment, coloured at its middle.
struct SpanPieces: Sequence {
    let segments: Int
    let spans: [StyleSpan]

    struct Piece {
        var start: Double, end: Double
        var color: Color
    }

    func makeIterator() -> IndexingIterator<[Piece]> { pieces().makeIterator() }

    func pieces() -> [Piece] {
        var result: [Piece] = []
        var start = 0.0
        let total = Double(segments)
        for (index, span) in spans.enumerated() where start < total {
            let isLast = index == spans.count - 1
            let end = isLast ? total : Swift.min(total, start + span.segments)
            guard end > start else { continue }
            if span.style.isGradient {
                let steps = Swift.max(1, Int(((end - start) * 16).rounded(.up)))
                let length = isLast ? Swift.max(span.segments, end - start) : span.segments
                for step in 0..<steps {
                    let a = start + (end - start) * Double(step) / Double(steps)
                    let b = start + (end - start) * Double(step + 1) / Double(steps)
                    result.append(
                        Piece(
                            start: a, end: b, color: span.style.color(at: Swift.min(1, ((a + b) / 2 - start) / length)))
                    )
                }
            } else {
                result.append(Piece(start: start, end: end, color: span.style.fromColor))
            }
            start = end
        }
        return result
    }
}
#endif
