// The shapes of the SVG diagram: boxes, relationship lines with their
// arrowheads and labels, inheritance lines. Geometry is plain 2-D vectors.

extension SVGDrawing {
    typealias Point = (x: Double, y: Double)

    /// An axis-aligned rectangle: a box or a label, for keeping labels apart.
    struct Rect {
        var x, y, width, height: Double
        func overlaps(_ other: Rect) -> Bool {
            x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
        }
    }

    func box(_ box: Box) -> String {
        let name = box.entity.name ?? ""
        var parts = [
            "<g class=\"entity\" data-entity=\"\(Self.escape(name))\">",
            "<title>\(Self.escape(ModelSummary.text(forEntity: box.entity)))</title>",
            "<rect x=\"\(Self.number(box.x))\" y=\"\(Self.number(box.y))\" width=\"\(Self.number(box.width))\" "
                + "height=\"\(Self.number(box.height))\" rx=\"6\" fill=\"#f7f9fc\" stroke=\"#4a6fa5\" "
                + "stroke-width=\"1.5\"/>",
            "<path d=\"M\(Self.number(box.x)),\(Self.number(box.y + Self.headerHeight)) h\(Self.number(box.width))\" "
                + "stroke=\"#4a6fa5\"/>",
            "<text x=\"\(Self.number(box.x + box.width / 2))\" y=\"\(Self.number(box.y + 18))\" text-anchor=\"middle\" "
                + "font-weight=\"bold\" \(Self.font)\(box.entity.isAbstract ? " font-style=\"italic\"" : "")>"
                + "\(Self.escape(box.lines[0]))</text>",
        ]
        for (index, line) in box.lines.dropFirst().enumerated() {
            let y = box.y + Self.headerHeight + 16 + Double(index) * Self.lineHeight
            parts.append("<text class=\"attribute\" x=\"\(Self.number(box.x + Self.charWidth))\" "
                         + "y=\"\(Self.number(y))\" "
                         + "\(Self.font)>\(Self.escape(line))</text>")
        }
        return (parts + ["</g>"]).joined(separator: "\n")
    }

    /// A dashed line from the subentity to its parent, ending in a hollow triangle.
    func inheritance(_ child: Box, _ parent: Box) -> String {
        let (start, end) = Self.ends(child, parent, offset: 0)
        let u = Self.unit(start, end), n = (x: -u.y, y: u.x)
        let triangle = [end, Self.add(end, u, -13, n, 7), Self.add(end, u, -13, n, -7)]
        return """
            <g class="inheritance" data-entity="\(Self.escape(child.entity.name ?? ""))" \
            data-parent="\(Self.escape(parent.entity.name ?? ""))">
            <path d="\(Self.path([start, Self.add(end, u, -13, n, 0)]))" stroke="#666" stroke-dasharray="6 4" \
            fill="none"/>
            <path d="\(Self.path(triangle))Z" fill="#ffffff" stroke="#666"/>
            </g>
            """
    }

    /// One relationship and its inverse: a line (a loop for an entity's own
    /// relationship) with arrowheads at each end it leads to.
    func edge(_ relationship: NSRelationshipDescription, _ inverse: NSRelationshipDescription?,
              _ source: Box, _ destination: Box, index: Int,
              occupied: inout [Rect]) -> (shape: String, labels: String) {
        if source.entity === destination.entity { return (loop(relationship, inverse, source, index: index), "") }
        // Further relationships between the same two entities run beside the first, alternately on each side.
        let offset = Double((index + 1) / 2) * (index % 2 == 0 ? -1 : 1) * 18
        let (start, end) = Self.ends(source, destination, offset: offset)
        let points = [start, end]
        let startDirection = Self.unit(end, start), endDirection = Self.unit(start, end)
        var parts = [
            Self.relationshipGroup(relationship, inverse),
            "<path d=\"\(Self.path(points))\" stroke=\"#333\" fill=\"none\"/>",
        ]
        parts += arrowhead(at: points.last!, direction: endDirection, toMany: relationship.isToMany)
        // Labels are drawn after the boxes, in a group of their own, so that no box or line covers them.
        var labels = [Self.relationshipGroup(relationship, inverse).replacingOccurrences(of: "\"relationship\"",
                                                                                       with: "\"relationship-labels\""),
                      label(relationship, at: points.last!, direction: endDirection, occupied: &occupied)]
        if let inverse {
            parts += arrowhead(at: points[0], direction: startDirection, toMany: inverse.isToMany)
            labels.append(label(inverse, at: points[0], direction: startDirection, occupied: &occupied))
        }
        return ((parts + ["</g>"]).joined(separator: "\n"), (labels + ["</g>"]).joined(separator: "\n"))
    }

    /// An entity's relationship to itself: a loop out of the box's right
    /// side, arrowheads where it comes back, labels to its right.
    func loop(_ relationship: NSRelationshipDescription, _ inverse: NSRelationshipDescription?, _ box: Box,
              index: Int) -> String {
        let x = box.x + box.width, reach = Self.loopReach + Double(index) * 24
        let top = (x, box.y + box.height * 0.3), bottom = (x, box.y + box.height * 0.7)
        let points: [Point] = [top, (x + reach, top.1 - 14), (x + reach, bottom.1 + 14), bottom]
        var parts = [Self.relationshipGroup(relationship, inverse),
                     "<path d=\"\(Self.curve(points))\" stroke=\"#333\" fill=\"none\"/>"]
        parts += arrowhead(at: bottom, direction: (-1, 0), toMany: relationship.isToMany)
        if let inverse { parts += arrowhead(at: top, direction: (-1, 0), toMany: inverse.isToMany) }
        // The inverse's label level with the upper end, where its arrowhead is; the relationship's below.
        for (offset, side) in [inverse, relationship].enumerated() {
            guard let side else { continue }
            let lines = Self.labelLines(side)
            let y = box.y + Double(offset) * 30 + Double(index) * 62
            parts.append("<text class=\"label\" \(Self.labelFont) \(Self.halo) fill=\"#222\">"
                         + "<tspan x=\"\(Self.number(x + reach + 8))\" y=\"\(Self.number(y + 8))\">"
                         + "\(Self.escape(lines.0))</tspan>"
                         + "<tspan x=\"\(Self.number(x + reach + 8))\" y=\"\(Self.number(y + 20))\" fill=\"#666\">"
                         + "\(Self.escape(lines.1))</tspan></text>")
        }
        return (parts + ["</g>"]).joined(separator: "\n")
    }

    static let loopReach = 40.0

    /// The group of a relationship pair, with what tests and scripts read back.
    static func relationshipGroup(_ relationship: NSRelationshipDescription,
                                  _ inverse: NSRelationshipDescription?) -> String {
        "<g class=\"relationship\" data-entity=\"\(escape(relationship.entity?.name ?? ""))\" "
            + "data-name=\"\(escape(relationship.name))\" "
            + "data-destination=\"\(escape(relationship.destinationEntity?.name ?? ""))\" "
            + "data-inverse=\"\(escape(inverse?.name ?? ""))\" "
            + "data-to-many=\"\(relationship.isToMany)\" data-delete-rule=\"\(relationship.deleteRule.modelFileName)\">"
    }

    /// One chevron for to-one, two for to-many, their tips at `point`.
    func arrowhead(at point: Point, direction u: Point, toMany: Bool) -> [String] {
        let n = (x: -u.y, y: u.x)
        return (toMany ? [0.0, -7] : [0.0]).map { back in
            let tip = Self.add(point, u, back, n, 0)
            let chevron = [Self.add(tip, u, -10, n, 5.5), tip, Self.add(tip, u, -10, n, -5.5)]
            return "<path class=\"arrowhead\" d=\"\(Self.path(chevron))\" stroke=\"#333\" stroke-width=\"1.5\" "
                + "fill=\"none\"/>"
        }
    }

    /// A side's label, two lines (name; cardinality and delete rule), set back
    /// from the arrowhead along the line and beside it, clear of the box.
    func label(_ relationship: NSRelationshipDescription, at point: Point, direction u: Point,
               occupied: inout [Rect]) -> String {
        let lines = Self.labelLines(relationship)
        let width = Self.labelWidth(relationship)
        // Set back from the arrowhead until clear of the box, then beside the line: left or right of a
        // steep line, above or below a flat one.
        let steep = abs(u.y) > abs(u.x)
        let back = steep ? 26 / abs(u.y) : (width / 2 + 12) / abs(u.x)
        let beside: Point = steep ? (width / 2 + 8, 0) : (0, 18)
        // Where labels of lines that cross would cover each other or a box, this one moves to the line's
        // other side or further back along it; when no place is free, the first is taken.
        var candidates: [Point] = []
        for step in 0..<8 {
            let base = Self.add(point, u, -back - Double(step) * 16, (0, 0), 0)
            for side in [-1.0, 1.0] { candidates.append((base.x + side * beside.x, base.y + side * beside.y)) }
        }
        func rect(_ at: Point) -> Rect { Rect(x: at.x - width / 2 - 2, y: at.y - 13, width: width + 4, height: 28) }
        let at = candidates.first { at in !occupied.contains { $0.overlaps(rect(at)) } } ?? candidates[0]
        occupied.append(rect(at))
        return "<text class=\"label\" text-anchor=\"middle\" \(Self.labelFont) \(Self.halo) fill=\"#222\">"
            + "<tspan x=\"\(Self.number(at.x))\" y=\"\(Self.number(at.y - 2))\">\(Self.escape(lines.0))</tspan>"
            + "<tspan x=\"\(Self.number(at.x))\" y=\"\(Self.number(at.y + 11))\" fill=\"#666\">"
            + "\(Self.escape(lines.1))</tspan>"
            + "</text>"
    }

    static let labelFont = "font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" font-size=\"11\""
    static let labelCharWidth = 6.7
    /// A white outline under the letters, so that a line crossing a label does not cross them out.
    static let halo = "stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\""

    /// The name, then "to-many, Cascade" (with "ordered" when it is).
    static func labelLines(_ relationship: NSRelationshipDescription) -> (String, String) {
        let count = relationship.isToMany ? (relationship.isOrdered ? "ordered to-many" : "to-many") : "to-one"
        return (relationship.name, "\(count), \(relationship.deleteRule.modelFileName)")
    }

    static func labelWidth(_ relationship: NSRelationshipDescription) -> Double {
        let lines = labelLines(relationship)
        return Double(max(lines.0.count, lines.1.count)) * labelCharWidth
    }

    /// Where the line between two boxes' centres, moved sideways by
    /// `offset`, leaves the first box and enters the second.
    static func ends(_ a: Box, _ b: Box, offset: Double) -> (Point, Point) {
        let u = unit(a.center, b.center), n = (x: -u.y, y: u.x)
        let from = add(a.center, u, 0, n, offset), to = add(b.center, u, 0, n, offset)
        return (exit(a, from, u), exit(b, to, (-u.x, -u.y)))
    }

    /// The point where a ray from `point` (inside `box`) along `u` crosses the box's border.
    static func exit(_ box: Box, _ point: Point, _ u: Point) -> Point {
        var t = Double.infinity
        if u.x > 1e-9 { t = min(t, (box.x + box.width - point.x) / u.x) }
        if u.x < -1e-9 { t = min(t, (box.x - point.x) / u.x) }
        if u.y > 1e-9 { t = min(t, (box.y + box.height - point.y) / u.y) }
        if u.y < -1e-9 { t = min(t, (box.y - point.y) / u.y) }
        return t.isFinite ? (point.x + u.x * t, point.y + u.y * t) : point
    }

    static func unit(_ a: Point, _ b: Point) -> Point {
        let dx = b.x - a.x, dy = b.y - a.y, length = max((dx * dx + dy * dy).squareRoot(), 1e-9)
        return (dx / length, dy / length)
    }

    /// `point` moved by `along` in direction `u` and `across` in direction `n`.
    static func add(_ point: Point, _ u: Point, _ along: Double, _ n: Point, _ across: Double) -> Point {
        (point.x + u.x * along + n.x * across, point.y + u.y * along + n.y * across)
    }

    static func path(_ points: [Point]) -> String {
        points.enumerated().map { "\($0 == 0 ? "M" : "L")\(number($1.x)),\(number($1.y))" }.joined(separator: " ")
    }

    static func curve(_ p: [Point]) -> String {
        "M\(number(p[0].x)),\(number(p[0].y)) C\(number(p[1].x)),\(number(p[1].y)) "
            + "\(number(p[2].x)),\(number(p[2].y)) \(number(p[3].x)),\(number(p[3].y))"
    }

    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
