import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// A row of the search results, made once and reused for every keystroke's results: it shows a
/// conversation's heading, a hit, or "No messages found." Rows that are not needed are hidden.
/// (Making and styling new rows was most of a keystroke's frame.)
@MainActor
final class SearchResultRow {
    enum Content {
        case heading(SearchGroup)
        case hit(SearchHit)
        case nothingFound
    }

    let row: Widget
    private let heading: Widget
    private let title = UI.label("", classes: [Style.label], wrap: false)
    private let agent = UI.label("", classes: [Style.caption, Style.dim], wrap: false)
    private let hit: Widget
    // One line, ellipsized: a wrapped label is measured height-for-width, and a keystroke lays out every row.
    private let snippet = UI.label("", classes: [Style.body], wrap: false)
    private let caption = UI.label("", classes: [Style.caption, Style.dim], wrap: false)
    private let nothing = UI.label(L("No messages found."), classes: [Style.body, Style.dim], wrap: true)

    init() {
        gtk_label_set_ellipsize(OpaquePointer(title), PANGO_ELLIPSIZE_END)
        gtk_label_set_ellipsize(OpaquePointer(snippet), PANGO_ELLIPSIZE_END)
        heading = UI.hbox(spacing: Style.gapSmall, [title, UI.spacer(vertical: false), agent])
        UI.margins(heading, top: Style.gapSmall)
        hit = UI.vbox(spacing: Style.gapHairline, [snippet, caption])
        UI.margins(nothing, top: Style.gap, start: Style.gapSmall, end: Style.gapSmall)
        row = gtk_list_box_row_new()
        gtk_list_box_row_set_child(gtkCast(row, to: GtkListBoxRow.self), UI.vbox([heading, hit, nothing]))
    }

    /// Shows `content`; nil hides the row.
    func show(_ content: Content?) {
        let choosable: Bool
        switch content {
        case .heading(let group):
            setText(title, group.title)
            setText(agent, group.agent.displayName)
            choosable = false
        case .hit(let found):
            let who = found.role == .user ? L("You") : found.agent.displayName
            let when = "\(LocalTime.shortDate(found.created)) \(LocalTime.shortTime(found.created))"
            setText(caption, "\(who) · \(when)")
            let markup = Self.markup(found.snippet)
            if String(cString: gtk_label_get_label(OpaquePointer(snippet))) != markup { gtk_label_set_markup(OpaquePointer(snippet), markup) }
            let plain = found.snippet.map(\.text).joined()
            Accessibility.setLabel(row, String(format: L("%@, %@, in %@: %@"), who, when, found.conversationTitle, plain))
            choosable = true
        case .nothingFound, nil:
            choosable = false
        }
        if case .hit = content {} else { Accessibility.setLabel(row, "") }
        UI.setVisible(row, content != nil)
        UI.setVisible(heading, { if case .heading = content { true } else { false } }())
        UI.setVisible(hit, choosable)
        UI.setVisible(nothing, { if case .nothingFound = content { true } else { false } }())
        let listRow = gtkCast(row, to: GtkListBoxRow.self)
        gtk_list_box_row_set_activatable(listRow, choosable ? 1 : 0)
        gtk_list_box_row_set_selectable(listRow, choosable ? 1 : 0)
        gtk_widget_set_focusable(row, choosable ? 1 : 0)
    }

    /// Only a changed text is set: setting a label's text lays it out again.
    private func setText(_ label: Widget, _ text: String) {
        if String(cString: gtk_label_get_text(OpaquePointer(label))) != text { UI.setText(label, text) }
    }

    /// Pango markup of a snippet: every run escaped, the matched ones bold. The snippet is a cut of the
    /// message's Markdown source: its emphasis and code marks are left out, as the bubble shows none.
    static func markup(_ runs: [SnippetRun]) -> String {
        runs.map { run in
            let text = run.text.replacingOccurrences(of: "**", with: "").replacingOccurrences(of: "__", with: "")
                .replacingOccurrences(of: "`", with: "")
            let escaped =
                g_markup_escape_text(text, -1).map { pointer in
                    defer { g_free(pointer) }
                    return String(cString: pointer)
                } ?? ""
            return run.matched ? "<b>\(escaped)</b>" : escaped
        }.joined()
    }
}
