import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// The message list's side of `RowPlaceholders` and `OpeningFrame`: which rows start as
/// placeholders (those of messages that scrolling brought into the list, and every row of a
/// conversation just opened), how fast the user moves the view, and which placeholders get their
/// content in each frame.
@MainActor
final class PlaceholderPacer {
    /// Messages that scrolling brought into the list.
    private var brought: Set<UUID> = []
    /// Rows bound since the last frame: a recycled row still has its last message's place, so
    /// where it is is known only once the list has laid it out.
    private var justBound: Set<ObjectIdentifier> = []
    private var pace = ScrollPace()
    private var lastValue: Double?

    func broughtByScrolling(_ ids: [UUID]) { brought.formUnion(ids) }
    func forget(_ ids: some Sequence<UUID>) { brought.subtract(ids) }

    private var opening = OpeningFrame()

    /// A conversation was opened: its rows (`ids`) stand as placeholders, and its first frame
    /// gives those it shows their content (`laidOut`).
    func opened(_ ids: [UUID]) {
        brought = Set(ids)
        justBound = []
        pace = ScrollPace()
        lastValue = nil
        opening.opened()
    }

    /// After GTK laid a frame out: while a conversation opens, the placeholders in the view get
    /// their content; if the view should be at the end and is not, it goes there (`moveToEnd`) and
    /// the placeholders among the rows in view there (`newestFirst`: the newest messages' rows
    /// bound, newest first) get theirs. Returns whether the frame must be laid out again.
    func laidOut(
        rows: some Collection<MessageRowView>, newestFirst: [MessageRowView], view: Widget, offEnd: Bool,
        moveToEnd: () -> Void
    ) -> Bool {
        guard opening.isOpening else { return false }
        let shown = gtk_widget_get_mapped(view) != 0 && gtk_widget_get_height(view) > 0
        let waiting = shown ? rows.filter { $0.contentPending && isInView($0.widget, view) } : []
        var atEnd: [MessageRowView] = []
        if shown, offEnd {
            let width = gtk_widget_get_width(view)
            let heights = newestFirst.map { row -> Double in
                var height: Int32 = 0
                gtk_widget_measure(row.widget, GTK_ORIENTATION_VERTICAL, width, nil, &height, nil, nil)
                return Double(height)
            }
            atEnd = newestFirst.prefix(OpeningFrame.rowsInViewAtEnd(heights: heights, view: Double(gtk_widget_get_height(view))))
                .filter(\.contentPending)
        }
        switch opening.laidOut(
            listShown: shown, offEnd: offEnd, placeholdersInView: Array(waiting.indices),
            newestPlaceholders: Array(atEnd.indices))
        {
        case .nothing: return false
        case .moveToEnd(let rows):
            moveToEnd()
            rows.forEach { atEnd[$0].makeContent() }
        case .make(let rows): rows.forEach { waiting[$0].makeContent() }
        }
        return true
    }

    /// After a frame was painted. While a conversation opens, returns what its first frame showed:
    /// rows in view, placeholders in view, placeholders beyond it (for checks).
    func painted(rows: some Collection<MessageRowView>, view: Widget) -> (inView: Int, placeholdersInView: Int, placeholdersBeyond: Int)? {
        guard opening.isOpening else { return nil }
        opening.painted()
        guard !opening.isOpening else { return nil }
        let inView = rows.filter { isInView($0.widget, view) }
        return (inView.count, inView.filter(\.contentPending).count, rows.filter(\.contentPending).count - inView.filter(\.contentPending).count)
    }

    /// Whether a row is on screen within the view as last laid out (GTK unmaps the rows it keeps
    /// beyond the view).
    private func isInView(_ row: Widget, _ view: Widget) -> Bool {
        gtk_widget_get_mapped(row) != 0 && distance(of: row, from: view, screen: Double(gtk_widget_get_height(view))) == 0
    }

    func startsAsPlaceholder(_ id: UUID) -> Bool { brought.contains(id) }

    /// The width of a character of the list's font (as `max-width-chars` counts it), asked once a
    /// frame: a placeholder's width is its text's longest line in characters.
    func characterWidth(in list: Widget) -> Int32 {
        if let characterWidth { return characterWidth }
        let width = TextLabel.charactersWidth(list, 1)
        characterWidth = width
        return width
    }
    private var characterWidth: Int32?
    func bound(_ row: MessageRowView) { justBound.insert(ObjectIdentifier(row)) }

    /// The view's position changed; `byUser` when the user moved it (not the list keeping what is
    /// shown in place as rows are measured or added above).
    func viewMoved(to value: Double, byUser: Bool) {
        if byUser, let lastValue { pace.moved(by: value - lastValue) }
        lastValue = value
    }

    /// Once a frame, before the list is laid out: gives this frame's share of placeholders their
    /// content, nearest the view first, none while the view moves fast; only those in view when
    /// the frame took a page of older messages in (`tookOlderPage`).
    func frame(rows: some Collection<MessageRowView>, view: Widget, tookOlderPage: Bool) {
        defer { justBound = []; pace.nextFrame() }
        let screen = Double(gtk_widget_get_height(view))
        let fast = pace.isFast(screen: screen)
        characterWidth = nil
        // While the view moves fast nothing is made: where the rows are does not matter.
        guard !fast else { return }
        let waiting = rows.filter(\.contentPending)
        guard !waiting.isEmpty else { return }
        let distances = waiting.map { justBound.contains(ObjectIdentifier($0)) ? nil : distance(of: $0.widget, from: view, screen: screen) }
        let lengths = waiting.map { $0.message?.text.utf8.count ?? 0 }
        for index in RowPlaceholders.contentToMake(distances: distances, characters: lengths, fast: fast, inViewOnly: tookOlderPage) {
            waiting[index].makeContent()
        }
    }

    /// How far the row is from the view, in pixels, as last laid out (0 when in it); nil before it
    /// was laid out.
    private func distance(of row: Widget, from view: Widget, screen: Double) -> Double? {
        var bounds = graphene_rect_t()
        guard gtk_widget_get_height(row) > 0, gtk_widget_compute_bounds(row, view, &bounds) != 0 else { return nil }
        let top = Double(bounds.origin.y), bottom = top + Double(bounds.size.height)
        return bottom < 0 ? -bottom : top > screen ? top - screen : 0
    }
}
