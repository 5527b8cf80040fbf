import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// A row of the search results, made once and reused for every keystroke's results: one message
/// found, with its conversation's heading above it when it is the first of its group. The heading
/// is the row's header in the list (`HistorySearchPane.makeResults`), outside the row's selection
/// and focus. Every row stays selectable and focusable, so that no row turns from heading to hit
/// (docs/performance.md, rule 34); rows not needed are hidden.
@MainActor
final class SearchResultRow {
    struct Content: Equatable {
        let hit: SearchHit
        /// The conversation's heading, shown when the hit is its group's first.
        let heading: Heading?
    }

    struct Heading: Equatable {
        let title: String
        let agent: ChatAgent
    }

    let row: Widget
    /// The row's header in the list: the conversation's name and agent.
    let heading: Widget
    private let title = UI.label("", classes: [Style.label], wrap: false)
    private let agent = UI.label("", classes: [Style.caption, Style.dim], wrap: false)
    // One line, ellipsized: a wrapped label is measured height-for-width, and a keystroke lays out every row.
    private let snippet = UI.label("", classes: [Style.body], wrap: false)
    private let caption = UI.label("", classes: [Style.caption, Style.dim], wrap: false)
    private var shown: Content?

    init() {
        gtk_label_set_ellipsize(OpaquePointer(title), PANGO_ELLIPSIZE_END)
        gtk_label_set_ellipsize(OpaquePointer(snippet), PANGO_ELLIPSIZE_END)
        heading = UI.hbox(spacing: Style.gapSmall, [title, UI.spacer(vertical: false), agent])
        // In line with the rows' text: their margin and padding (the sidebar's row style).
        UI.margins(heading, top: Style.gapSmall, start: Style.gapSmall + Style.gapMedium, end: Style.gapSmall + Style.gapMedium)
        UI.setVisible(heading, false)
        row = gtk_list_box_row_new()
        gtk_list_box_row_set_child(gtkCast(row, to: GtkListBoxRow.self), UI.vbox(spacing: Style.gapHairline, [snippet, caption]))
        // The row holds its heading until the list makes it the row's header (and after).
        g_object_set_data_full(
            UnsafeMutablePointer<GObject>(OpaquePointer(row)), Self.headingKey, g_object_ref_sink(UnsafeMutableRawPointer(heading)), g_object_unref)
    }

    /// Characters of a snippet shown before its first match: the sidebar's row shows about 24.
    static let snippetContext = 12

    /// Where the row keeps its heading, for the list's header function.
    nonisolated static let headingKey = "builderos-search-heading"

    /// Shows `content`; nil hides the row. Only what changed is set: each change of a text lays
    /// the label out again, and each change of visibility or name is an accessibility event.
    func show(_ content: Content?) {
        defer { shown = content }
        UI.setVisible(row, content != nil)
        UI.setVisible(heading, content?.heading != nil)
        guard let content, content != shown else { return }
        if let group = content.heading {
            setText(title, group.title)
            setText(agent, group.agent.displayName)
        }
        let found = content.hit
        guard found != shown?.hit else { return }
        let who = found.role == .user ? L("You") : found.agent.displayName
        let when = "\(LocalTime.shortDate(found.created)) \(LocalTime.shortTime(found.created))"
        setText(caption, "\(who) · \(when)")
        if found.snippet != shown?.hit.snippet {
            gtk_label_set_markup(OpaquePointer(snippet), Self.markup(found.snippet.withMatchNearStart(context: Self.snippetContext)))
        }
        let text = MarkdownMarks.removed(from: found.snippet.map(\.text).joined())
        Accessibility.setLabel(row, L("%@, %@, in %@: %@", who, when, found.conversationTitle, text))
    }

    private func setText(_ label: Widget, _ text: String) {
        if String(cString: gtk_label_get_text(OpaquePointer(label))) != text { UI.setText(label, text) }
    }

    /// Pango markup of a snippet: every run escaped, the matched ones bold. The snippet is a cut of
    /// the message's Markdown source, whose marks the bubble does not show.
    static func markup(_ runs: [SnippetRun]) -> String {
        runs.map { run in
            let escaped =
                g_markup_escape_text(MarkdownMarks.inlineRemoved(from: run.text), -1).map { pointer in
                    defer { g_free(pointer) }
                    return String(cString: pointer)
                } ?? ""
            return run.matched ? "<b>\(escaped)</b>" : escaped
        }.joined()
    }
}
