/// The model drawn as SVG by the tool itself, like Xcode's graph editor,
/// for machines without Graphviz: entities as boxes listing their
/// attributes, one line per relationship pair with arrowheads at each end
/// (one for to-one, two for to-many) labelled with names and delete rules,
/// and a dashed line with a hollow triangle from a subentity to its parent.
///
/// Layout is a grid in an order that keeps related entities near each other;
/// the cells are as wide and tall as their largest box plus a gap, so boxes
/// never overlap. Text is monospaced so that box widths can be computed
/// without a font renderer. Elements carry `class` and `data-` attributes
/// (entity, relationship, inverse) so that tests and scripts can read the
/// drawing back.
extension ModelDiagram {
    /// An SVG document of `model`.
    public static func svg(_ model: NSManagedObjectModel) -> String {
        SVGDrawing(model).document
    }
}

struct SVGDrawing {
    struct Box {
        let entity: NSEntityDescription
        let lines: [String]
        var x = 0.0, y = 0.0
        var width: Double { Double((lines.map(\.count).max() ?? 0) + 2) * SVGDrawing.charWidth }
        var height: Double { SVGDrawing.headerHeight + Double(lines.count - 1) * SVGDrawing.lineHeight + 8 }
        var center: (Double, Double) { (x + width / 2, y + height / 2) }
        /// Room on the right for loops of relationships to the entity itself and their labels.
        var loopRoom = 0.0
    }

    static let charWidth = 7.8, lineHeight = 16.0, headerHeight = 26.0, gap = 110.0, margin = 40.0
    static let font = "font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" font-size=\"13\""

    var boxes: [String: Box] = [:]
    var order: [String] = []
    let pairs: [(NSRelationshipDescription, NSRelationshipDescription?)]
    var width = 0.0, height = 0.0
    /// The widest relationship label: columns are set that far apart, so that the labels at both ends fit.
    var labelWidth = 0.0

    init(_ model: NSManagedObjectModel) {
        pairs = ModelDiagram.relationshipPairs(model)
        let entities = ModelSummary.sortedEntities(model)
        for entity in entities {
            let name = entity.name ?? ""
            let attributes = ModelSummary.ownAttributes(entity).map { attribute in
                let type = attribute.attributeType.modelFileName ?? "Undefined"
                let marks = (attribute.isOptional ? "?" : "") + (attribute.isTransient ? " (transient)" : "")
                return "\(attribute.name): \(type)\(marks)"
            }
            boxes[name] = Box(entity: entity, lines: [name + (entity.isAbstract ? " «abstract»" : "")] + attributes)
        }
        order = Self.neighbourOrder(entities, pairs: pairs)
        var loops: [String: Int] = [:]
        for (relationship, inverse) in pairs {
            let labels = [relationship, inverse].compactMap { $0 }.map(Self.labelWidth).max() ?? 0
            labelWidth = max(labelWidth, labels)
            guard let name = relationship.entity?.name, relationship.destinationEntity === relationship.entity else {
                continue
            }
            loops[name, default: 0] += 1
            let room = Self.loopReach + Double(loops[name]! - 1) * 24 + labels + 12
            boxes[name]!.loopRoom = max(boxes[name]!.loopRoom, room)
        }
        layOut()
    }

    /// Entities in breadth-first order over relationships and inheritance,
    /// starting from the most connected one, so that neighbours share a row
    /// or column of the grid.
    static func neighbourOrder(_ entities: [NSEntityDescription],
                               pairs: [(NSRelationshipDescription, NSRelationshipDescription?)]) -> [String] {
        var neighbours: [String: [String]] = [:]
        func link(_ a: String?, _ b: String?) {
            guard let a, let b, a != b else { return }
            neighbours[a, default: []].append(b)
            neighbours[b, default: []].append(a)
        }
        for (relationship, _) in pairs { link(relationship.entity?.name, relationship.destinationEntity?.name) }
        for entity in entities { link(entity.name, entity.superentity?.name) }
        var order: [String] = [], seen = Set<String>()
        let byDegree = entities.compactMap(\.name)
            .sorted { (neighbours[$0]?.count ?? 0) > (neighbours[$1]?.count ?? 0) }
        for start in byDegree where !seen.contains(start) {
            var queue = [start]
            seen.insert(start)
            while !queue.isEmpty {
                let name = queue.removeFirst()
                order.append(name)
                for next in (neighbours[name] ?? []).sorted() where !seen.contains(next) {
                    seen.insert(next)
                    queue.append(next)
                }
            }
        }
        return order
    }

    mutating func layOut() {
        let columns = max(1, Int(Double(order.count).squareRoot().rounded(.up)))
        let rows = (order.count + columns - 1) / columns
        var columnWidths = [Double](repeating: 0, count: columns), rowHeights = [Double](repeating: 0, count: rows)
        for (index, name) in order.enumerated() {
            let extent = boxes[name]!.width + boxes[name]!.loopRoom
            columnWidths[index % columns] = max(columnWidths[index % columns], extent)
            rowHeights[index / columns] = max(rowHeights[index / columns], boxes[name]!.height)
        }
        let columnGap = max(Self.gap, labelWidth + 60), rowGap = Self.gap
        for (index, name) in order.enumerated() {
            let column = index % columns, row = index / columns
            boxes[name]!.x = Self.margin + columnWidths[..<column].reduce(0, +) + Double(column) * columnGap
            boxes[name]!.y = Self.margin + rowHeights[..<row].reduce(0, +) + Double(row) * rowGap
        }
        width = 2 * Self.margin + columnWidths.reduce(0, +) + Double(max(0, columns - 1)) * columnGap
        height = 2 * Self.margin + rowHeights.reduce(0, +) + Double(max(0, rows - 1)) * rowGap
    }

    var document: String {
        var body: [String] = [], labels: [String] = []
        var drawnBetween: [String: Int] = [:]
        var occupied = order.compactMap { boxes[$0] }.map { Rect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
        for entity in order.compactMap({ boxes[$0]?.entity }) {
            guard let parent = entity.superentity?.name, let child = entity.name,
                  let from = boxes[child], let to = boxes[parent] else { continue }
            body.append(inheritance(from, to))
        }
        for (relationship, inverse) in pairs {
            guard let from = relationship.entity?.name, let to = relationship.destinationEntity?.name,
                  let source = boxes[from], let destination = boxes[to] else { continue }
            let key = [from, to].sorted().joined(separator: "\u{0}")
            let index = drawnBetween[key, default: 0]
            drawnBetween[key] = index + 1
            let drawn = edge(relationship, inverse, source, destination, index: index, occupied: &occupied)
            body.append(drawn.shape)
            labels.append(drawn.labels)
        }
        for name in order { body.append(box(boxes[name]!)) }
        body += labels
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.number(width))" height="\(Self.number(height))" \
            viewBox="0 0 \(Self.number(width)) \(Self.number(height))">
            <rect class="background" width="100%" height="100%" fill="#ffffff"/>
            \(body.joined(separator: "\n"))
            </svg>
            """
    }
}
