import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// The message list's side of `RowPlaceholders`: which rows start as placeholders (those of
/// messages that scrolling brought into the list), how fast the user moves the view, and which
/// placeholders get their content in each frame.
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

    /// A conversation was opened: its rows are made as they are shown.
    func reset() {
        brought = []
        justBound = []
        pace = ScrollPace()
        lastValue = nil
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
    /// content, nearest the view first, none while the view moves fast.
    func frame(rows: some Collection<MessageRowView>, view: Widget) {
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
        for index in RowPlaceholders.contentToMake(distances: distances, characters: lengths, fast: fast) {
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
