import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// The conversation's messages in a virtualised GtkListView: the model holds only message ids
/// (a GtkStringList), rows are recycled, and only rows on screen exist. Updates that arrive
/// between two frames (streaming) are applied once per frame. Scrolling towards the top loads older
/// messages; new ones scroll into view unless the user has scrolled up. The model holds a bounded
/// window of messages around the view (`window`): what scrolling brings in at one end is dropped at
/// the other, and loaded again when the view comes back. Newer messages read from history join the
/// list a frame's share at a time (`ScrollLoading`); older ones a page at a time (`olderNeeded` says why).
@MainActor
public final class MessageList {
    public let widget: Widget
    private let listView: Widget
    private var vadjustment: UnsafeMutablePointer<GtkAdjustment>!
    private let model: OpaquePointer  // GtkStringList
    private var messages: [UUID: ChatMessage] = [:]
    private var order: [UUID] = []
    private var rows: [UnsafeMutableRawPointer: MessageRowView] = [:]  // by GtkListItem
    private var bound: [UUID: MessageRowView] = [:]
    private var pending: Set<UUID> = []
    private var coalescer: FrameCoalescer!
    private var stickToBottom = true
    private var lastUpper = 0.0
    private var loadingOlder = false
    /// Newer messages read from history, not yet in the list: they join it a few a frame (oldest first).
    private var stagedNewer: [ChatMessage] = []
    private var reachedFirst = false
    /// Whether the newest message is in the model (false after scrolling up dropped it).
    private var reachedLast = true
    private var framesSinceShow = 0
    /// Rows that scrolling brings in start as placeholders (`RowPlaceholders`).
    let placeholders = PlaceholderPacer()
    /// A conversation opens with the messages that fill its view (at most these many, of which
    /// `OpeningFrame.firstPage` keeps those that cover 1.5 views), so the first frame lays out only those;
    /// older ones follow while less than `lead` screens of them are above the view (and as the user
    /// scrolls up). History is read a page (`olderPage`) at a time: since rows that scrolling brings
    /// in stand as placeholders (`RowPlaceholders`), a loading frame is mostly GTK's own layout and
    /// restyling, and a half page (6) has the fewest late frames scrolling up: 12 had twice as many,
    /// 4 no fewer.
    static let firstPage = 8
    static let olderPage = 6
    /// Newer messages are read 12 at a time: they join the list below the others (no restyling of
    /// the rows before them), a frame's share at a time or all at once near the list's end.
    static let newerPage = 12
    /// Screens of messages kept in the list beyond the view in the direction it moves.
    static let lead = 2.0
    /// About this many messages in the model (more only while the rows beyond are near the view).
    /// Why: GTK 4.8's list view gives every row it has no widget for the median height of the rows
    /// it has (also a row it measured before), and a chat's rows are of two kinds, short questions
    /// and longer replies, so that median jumps between the two as the view moves. With thousands of
    /// such rows the list's height jumped by hundreds of thousands of pixels from one frame to the
    /// next, and the row at a scroll offset by ~150 rows, which the list then bound.
    /// Below the 200 rows GTK keeps realized around its anchor, every row is measured, none estimated.
    /// And far below that: every frame measures and allocates every row the list has, and a row added
    /// above the others restyles the rows after it (GTK's CSS sibling invalidation). Scrolling 10,000
    /// messages a page a frame (release build): with 160 the median frame took 8.3 ms up and
    /// 12.1 ms down, with 48 4.7 and 7.9 ms (two runs of the same build otherwise). Rows are dropped
    /// only once they are more than `lead` screens from the view, so a tall window with short
    /// messages keeps what it shows.
    static let window = 48
    /// Where `updateLater` reads a message's current state at frame time.
    public var lookup: ((UUID) -> ChatMessage?)?
    /// The user asked to send a message that was not delivered once more.
    var resend: ((ChatMessage) -> Void)?
    /// Loads messages older than the given sequence number, oldest first.
    var loadOlder: ((Int64) -> [ChatMessage])?
    /// Loads messages newer than the given sequence number, oldest first.
    var loadNewer: ((Int64) -> [ChatMessage])?
    /// Shows the conversation again from its newest messages (your own message was added while
    /// the newest were not in the list).
    var showNewest: (() -> Void)?
    /// Frames in which pending updates were applied (tests compare it with the number of chunks).
    public private(set) var framesApplied = 0

    public init() {
        model = gtk_string_list_new(nil)
        // The selection model takes the list's reference, the view takes both.
        let selection = gtk_no_selection_new(model)
        let factory = gtk_signal_list_item_factory_new()!
        listView = gtk_list_view_new(selection, factory)
        UI.addClasses(listView, [Style.transparent])
        gtk_widget_set_name(listView, "message-list")
        Accessibility.setLabel(listView, L("Messages"))
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(OpaquePointer(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(OpaquePointer(scroller), listView)
        gtk_widget_set_vexpand(scroller, 1)
        widget = scroller
        coalescer = FrameCoalescer(widget: listView) { [unowned self] in applyPending() }
        Signals.onUserInput(scroller) { [unowned self] in pinned = nil }

        let f = UnsafeMutableRawPointer(factory)
        Signals.connect(
            f, "setup",
            withArgument: { [unowned self] item in
                guard let item else { return }
                let row = MessageRowView()
                row.onResend = { [unowned self] message in resend?(message) }
                rows[item] = row
                gtk_list_item_set_child(OpaquePointer(item), row.widget)
            })
        Signals.connect(
            f, "bind",
            withArgument: { [unowned self] item in
                guard let item, let row = rows[item], let id = id(of: item), let message = messages[id] else { return }
                let room =
                    placeholders.startsAsPlaceholder(id)
                    ? MessageRowView.PlaceholderRoom(width: gtk_widget_get_width(listView), characterWidth: placeholders.characterWidth(in: listView))
                    : nil
                row.show(message, placeholderIn: room)
                row.setFound(id == highlighted)
                row.setFindTerms(findTerms)
                bound[id] = row
                placeholders.bound(row)
            })
        Signals.connect(
            f, "unbind",
            withArgument: { [unowned self] item in
                guard let item, let row = rows[item], let id = row.message?.id, bound[id] === row else { return }
                bound[id] = nil
            })
        // A row whose message left the list is destroyed once the loop is idle, not in the frame
        // that drops it (which is also the frame that makes the rows scrolled to: `DeferredRelease`).
        // GTK has unparented the row's widget by now; the row's own reference keeps it.
        Signals.connect(
            f, "teardown",
            withArgument: { [unowned self] item in
                guard let item else { return }
                if let row = rows.removeValue(forKey: item) { DeferredRelease.release(row.widget, keeping: row) }
            })
        let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(scroller))!
        let adj = UnsafeMutableRawPointer(adjustment)
        vadjustment = adjustment
        // Only the user's own scrolling decides whether to follow new messages: changes that come
        // with a new content height are the list measuring rows (or us), not the user, and so are
        // a reply's column keeping its text in view while it lays out blocks after a resize.
        Signals.connect(adj, "value-changed") { [unowned self] in
            let upper = gtk_adjustment_get_upper(adjustment)
            let byUser = upper == lastUpper && !LazyColumn.movingTheView
            if byUser && !movingToFound { stickToBottom = reachedLast && distanceFromBottom(adjustment) < 48 }
            placeholders.viewMoved(to: gtk_adjustment_get_value(adjustment), byUser: byUser)
        }
        // Taken after this dispatch: gtk_adjustment_configure notifies the new upper *before* it emits
        // value-changed for the same change, so taken at once the list's own move (e.g. its content
        // re-estimated as rows are measured) looked like the user's, and opening a long conversation
        // could stop one row short of its newest message. The dispatch holds a reference: the list
        // may be torn down in between (seen on Wayland, whose frames come at other times).
        Signals.connect(
            adj, "notify::upper",
            withArgument: { _ in
                g_object_ref(adj)
                DispatchQueue.main.async { [weak self] in
                    self?.lastUpper = gtk_adjustment_get_upper(adjustment)
                    g_object_unref(adj)
                }
            })
        // Following the newest message: row heights are estimates until rows are measured, so the
        // end moves while the list lays out. Each frame (only while shown) puts the view back at
        // the end until the user scrolls away.
        FrameTicker.every(listView) { [unowned self] in
            framesSinceShow += 1
            // From the second frame on (the first shows the newest messages), keep `lead` screens of older ones above.
            let lead = Self.lead * gtk_adjustment_get_page_size(adjustment)
            let tookOlderPage = framesSinceShow > 1 && gtk_adjustment_get_value(adjustment) < lead && olderNeeded()
            // And below, once scrolling up has dropped the newest: as many newer ones.
            if framesSinceShow > 1, !reachedLast, distanceFromBottom(adjustment) < lead { newerNeeded() }
            placeholders.frame(rows: bound.values, view: widget, tookOlderPage: tookOlderPage)
            if offEnd { moveToEnd() }
            keepFoundInView()
        }
        // A conversation just opened makes only the rows its first frame shows (`OpeningFrame`):
        // after each layout of that frame, the placeholders in view get their content and the
        // frame is laid out again before it is painted.
        FramePhases.observe(
            listView,
            afterLayout: { [unowned self] in
                // Asks for the frame's layout again (moving the view and a row's new content would
                // too). Each layout GDK repeats computes the window's size anew — on X11, ~11 round
                // trips to the server for the monitor — which is why the first page is kept small.
                if placeholders.laidOut(rows: bound.values, newestFirst: newestRowsBound, view: widget, offEnd: offEnd, moveToEnd: moveToEnd) {
                    gtk_widget_queue_allocate(listView)
                }
            },
            afterPaint: { [unowned self] in
                guard let shown = placeholders.painted(rows: bound.values, view: widget) else { return }
                WidgetTree.setStateName(
                    listView, "opened: \(shown.inView) in view, \(shown.placeholdersInView) placeholders in view, \(shown.placeholdersBeyond) beyond")
            })
        Lifetime.tie(self, to: widget)
    }

    var count: Int { order.count }
    var ids: [UUID] { order }
    func message(_ id: UUID) -> ChatMessage? { messages[id] }

    /// Replaces the list (a conversation was opened) with the newest of `list` that fill the view
    /// (`OpeningFrame.firstPage`; older ones come in from the second frame on, as scrolling brings
    /// them). `viewHeight`: about how tall the view will be, when it has not been laid out yet. The
    /// rows that fill the view by their estimated heights are made at once; the others wait as
    /// placeholders for a frame to show them.
    public func show(_ list: [ChatMessage], viewHeight: Double? = nil) {
        let height = gtk_widget_get_height(widget) > 0 ? Double(gtk_widget_get_height(widget)) : viewHeight ?? 0
        let page = OpeningFrame.firstPage(heights: list.reversed().map(MessageRowView.estimatedHeight), view: height)
        replaceAll(with: Array(list.suffix(page.rows)), found: nil, newestLoaded: true)
        placeholders.opened(Array(order.dropLast(page.madeAtOnce)))
        // The newest first, then the older ones before it: the list keeps its anchor on the row it
        // had, so its first layout starts at the newest message — at the end, unless that one is
        // taller than the view — and not at the oldest, from where the view had to move.
        splice(at: 0, remove: Int(g_list_model_get_n_items(model)), insert: Array(order.suffix(1)))
        splice(at: 0, remove: 0, insert: Array(order.dropLast()))
        scrollToBottom()
    }

    /// Replaces the list with `list` from its first message on, that one at the top of the view and
    /// highlighted (a search result, however deep in the conversation). Older messages come in above
    /// it from the second frame on — the list keeps its anchor on the row it had, so the found one
    /// stays in place — and newer ones below as the view moves down. `newestLoaded`: `list` ends
    /// with the conversation's newest message.
    public func show(from list: [ChatMessage], highlighting id: UUID, newestLoaded: Bool) {
        replaceAll(with: list, found: id, newestLoaded: newestLoaded)
        // The found message is made at once; the others start as placeholders and get their content
        // once the first layout has shown which are in view (`OpeningFrame`), as when a conversation opens.
        placeholders.opened(Array(order.dropFirst()))
        splice(at: 0, remove: Int(g_list_model_get_n_items(model)), insert: order)
        // The list view keeps its anchor where the last conversation had it (often its end): moving
        // the adjustment is undone at the next layout, its own action moves the anchor to the first row.
        gtk_widget_activate_action_variant(listView, "list.scroll-to-item", g_variant_new_uint32(0))
        gtk_adjustment_set_value(vadjustment, 0)
    }

    /// The list's state for a conversation just opened with `list`: at its newest message (`found`
    /// nil), or held at `found`.
    private func replaceAll(with list: [ChatMessage], found: UUID?, newestLoaded: Bool) {
        messages = Dictionary(list.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        order = list.map(\.id)
        bound = [:]
        pending = []
        stickToBottom = found == nil
        reachedFirst = false
        reachedLast = newestLoaded
        stagedNewer = []
        framesSinceShow = 0
        highlighted = found
        pinned = found
    }

    /// The message a search opened the conversation at; its row is marked until another conversation opens.
    private(set) var highlighted: UUID?

    /// The find bar's words and phrases: every row marks them in its text.
    var findTerms: [SearchQuery.Term] = [] {
        didSet { for row in bound.values { row.setFindTerms(findTerms) } }
    }

    /// Rings `id` and holds it at the top of the view, as `show(from:highlighting:)` does, when the list
    /// has it; false when it has to be read from history first.
    func reveal(_ id: UUID) -> Bool {
        guard messages[id] != nil else { return false }
        mark(id)
        stickToBottom = false
        pinned = id
        return true
    }

    /// Rings `id`'s row (nil: none).
    func mark(_ id: UUID?) {
        highlighted = id
        if id == nil { pinned = nil }
        for (rowID, row) in bound { row.setFound(rowID == id) }
    }
    /// The found message is held at the top of the view while rows are measured and older ones come in
    /// above it (GTK 4.8's list view has no "scroll to item", and re-estimates the rows it has not
    /// measured as they come), until the user scrolls, clicks or types in the list.
    private var pinned: UUID?
    private var movingToFound = false

    private func keepFoundInView() {
        guard let pinned, let target = messages[pinned] else { return }
        let shown = bound.values.filter { gtk_widget_get_mapped($0.widget) != 0 && gtk_widget_get_height($0.widget) > 0 }
        guard !shown.isEmpty else { return }
        var move = 0.0
        if let row = shown.first(where: { $0.message?.id == pinned }) {
            // Relative to the scrolled window, whose top is the view's top; a small gap keeps its ring in view.
            var bounds = graphene_rect_t()
            guard gtk_widget_compute_bounds(row.widget, widget, &bounds) != 0 else { return }
            move = Double(bounds.origin.y) - Double(Style.gapSmall)
        } else {
            // Not drawn: the list's estimates moved the view away. A page towards it per frame finds it.
            let sequences = shown.compactMap { $0.message?.sequence }
            guard let lowest = sequences.min() else { return }
            move = (target.sequence < lowest ? -1 : 1) * pageSize
        }
        guard abs(move) > 0.5 else { return }
        movingToFound = true
        gtk_adjustment_set_value(vadjustment, gtk_adjustment_get_value(vadjustment) + move)
        movingToFound = false
    }

    public func append(_ message: ChatMessage) {
        guard messages[message.id] == nil else { update(message); return }
        // The newest are not in the list: a reply comes in with them when the view gets there, and
        // your own message brings the view back to them.
        guard reachedLast else {
            if message.role == .user || message.role == .status { showNewest?() }
            return
        }
        messages[message.id] = message
        order.append(message.id)
        // Your own message always scrolls into view, and so does what became of it (a status pill such as
        // "not delivered" ends your turn: it must not wait below the fold).
        if message.role == .user || message.role == .status { stickToBottom = true }
        splice(at: order.count - 1, remove: 0, insert: [message.id])
    }

    /// Records a change; the row is redrawn at the next frame.
    public func update(_ message: ChatMessage) {
        guard messages[message.id] != nil else { return }
        messages[message.id] = message
        pending.insert(message.id)
        coalescer.schedule()
    }

    /// Records that a message changed without taking its text: it is read once, at the next frame.
    /// A frame's cost follows what changed (closed Markdown blocks are not laid out again), so every
    /// frame shows the newest text, however long the reply.
    public func updateLater(_ id: UUID) {
        guard messages[id] != nil else { return }
        pending.insert(id)
        coalescer.schedule()
    }

    private func applyPending() {
        framesApplied += 1
        for id in pending {
            if let live = lookup?(id) { messages[id] = live }
            if let row = bound[id], let message = messages[id] { row.show(message) }
        }
        pending = []
        if stickToBottom { scrollToBottom() }
    }

    /// Adds a page of older messages at the top. The whole page at once, unlike newer ones: GTK's
    /// layout after an insertion above the others costs the same for 2 rows as for 12
    /// (docs/performance.md, "What is left"), so a few a frame cost more than a page now and then.
    /// Returns whether a page was added.
    private func olderNeeded() -> Bool {
        guard !loadingOlder, !reachedFirst, let first = order.first, let sequence = messages[first]?.sequence, let loadOlder else { return false }
        loadingOlder = true
        defer { loadingOlder = false }
        let older = loadOlder(sequence).filter { messages[$0.id] == nil }
        guard !older.isEmpty else { reachedFirst = true; return false }
        for m in older { messages[m.id] = m }
        placeholders.broughtByScrolling(older.map(\.id))
        order.insert(contentsOf: older.map(\.id), at: 0)
        splice(at: 0, remove: 0, insert: older.map(\.id))
        if order.count > Self.window { dropNewest(droppable(order.count - Self.window, newest: true)) }
        return true
    }

    /// Adds newer messages at the bottom: this frame's share of those read from history.
    private func newerNeeded() {
        guard !reachedLast, let last = order.last, let sequence = messages[last]?.sequence, let loadNewer else { return }
        if stagedNewer.isEmpty { stagedNewer = loadNewer(sequence).filter { messages[$0.id] == nil } }
        guard !stagedNewer.isEmpty else { reachedLast = true; return }
        // A frame's share while a screen of them is still below the view; all that was read when the
        // view is about to reach the end of the list (a fast scroll would wait for them otherwise).
        let share = distanceFromBottom(vadjustment) < pageSize ? stagedNewer.count : ScrollLoading.count(stagedNewer)
        let newer = Array(stagedNewer.prefix(share))
        stagedNewer.removeFirst(newer.count)
        for m in newer { messages[m.id] = m }
        placeholders.broughtByScrolling(newer.map(\.id))
        order.append(contentsOf: newer.map(\.id))
        splice(at: order.count - newer.count, remove: 0, insert: newer.map(\.id))
        if order.count > Self.window, pinned == nil { dropOldest(droppable(order.count - Self.window, newest: false)) }
    }

    /// How many of the newest (or oldest) `count` messages can leave the list (`ScrollLoading`), by
    /// their heights as last allocated. (Positions are no help: GTK 4.8 does not allocate rows far
    /// from the view again.)
    private func droppable(_ count: Int, newest: Bool) -> Int {
        let ids = newest ? Array(order.suffix(count).reversed()) : Array(order.prefix(count))
        return ScrollLoading.droppable(
            heights: ids.map { id in Double(bound[id].map { gtk_widget_get_height($0.widget) } ?? 0) },
            beyond: newest ? distanceFromBottom(vadjustment) : gtk_adjustment_get_value(vadjustment),
            page: pageSize, lead: Self.lead)
    }

    /// Drops the newest `count` messages from the list (the view is far above them).
    private func dropNewest(_ count: Int) {
        guard count > 0 else { return }
        let dropped = order.suffix(count)
        order.removeLast(count)
        forget(dropped)
        splice(at: order.count, remove: count, insert: [])
        reachedLast = false
        stickToBottom = false
        // What was read after them is no longer next to the list's end.
        stagedNewer = []
    }

    /// Drops the oldest `count` messages from the list (the view is far below them).
    private func dropOldest(_ count: Int) {
        guard count > 0 else { return }
        let dropped = order.prefix(count)
        order.removeFirst(count)
        forget(dropped)
        splice(at: 0, remove: count, insert: [])
        reachedFirst = false
    }

    private func forget(_ ids: ArraySlice<UUID>) {
        for id in ids { messages[id] = nil; pending.remove(id) }
        placeholders.forget(ids)
    }

    // MARK: Model plumbing

    private func splice(at position: Int, remove: Int, insert ids: [UUID]) {
        var strings = ids.map { strdup($0.uuidString) } + [nil]
        defer { strings.forEach { free($0) } }
        strings.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                gtk_string_list_splice(model, UInt32(position), UInt32(remove), $0)
            }
        }
    }

    private func id(of item: UnsafeMutableRawPointer) -> UUID? {
        guard let object = gtk_list_item_get_item(OpaquePointer(item)) else { return nil }
        guard let text = gtk_string_object_get_string(OpaquePointer(object)) else { return nil }
        return UUIDText.parse(text)
    }

    private var pageSize: Double { gtk_adjustment_get_page_size(vadjustment) }

    /// The rows of the newest messages, newest first, while bound (the list binds a range of rows).
    private var newestRowsBound: [MessageRowView] {
        var rows: [MessageRowView] = []
        for id in order.reversed() {
            guard let row = bound[id] else { break }
            rows.append(row)
        }
        return rows
    }

    /// Whether the view should follow the newest message and is not at it.
    private var offEnd: Bool { stickToBottom && !order.isEmpty && distanceFromBottom(vadjustment) > 0.5 }

    private func moveToEnd() {
        gtk_adjustment_set_value(vadjustment, gtk_adjustment_get_upper(vadjustment) - gtk_adjustment_get_page_size(vadjustment))
    }

    private func distanceFromBottom(_ a: UnsafeMutablePointer<GtkAdjustment>) -> Double {
        gtk_adjustment_get_upper(a) - gtk_adjustment_get_page_size(a) - gtk_adjustment_get_value(a)
    }

    /// Follows the newest message from the next frame on (see the frame ticker in init).
    func scrollToBottom() {
        stickToBottom = true
    }
}
