import CGtk

public typealias Widget = UnsafeMutablePointer<GtkWidget>

/// Small builders for the widgets every page uses, so pages read as layout, not C calls.
/// Fresh widgets are floating; appending them to a parent hands the reference over.
@MainActor
public enum UI {
    public static func label(
        _ text: String, classes: [String] = [], wrap: Bool = true, xalign: Float = 0,
        selectable: Bool = false
    ) -> Widget {
        let label = gtk_label_new(text)!
        let opaque = OpaquePointer(label)
        gtk_label_set_wrap(opaque, wrap ? 1 : 0)
        if wrap {
            gtk_label_set_wrap_mode(opaque, PANGO_WRAP_WORD_CHAR)
            // A wrapping label's natural width is its whole text on one line, which would widen
            // the window; this caps it at a readable measure.
            gtk_label_set_max_width_chars(opaque, 40)
        }
        gtk_label_set_xalign(opaque, xalign)
        gtk_label_set_selectable(opaque, selectable ? 1 : 0)
        addClasses(label, classes)
        // GTK 4.8 names an empty label by its type ("GtkLabel"): one waiting for its text says nothing.
        if text.isEmpty { Accessibility.hide(label) }
        return label
    }

    /// The window's buttons (close, and those the desktop's layout adds) on one side, as GtkHeaderBar makes
    /// them: hidden while that side has none.
    public static func windowControls(_ side: GtkPackType) -> Widget {
        let controls = gtk_window_controls_new(side)!
        // G_BINDING_SYNC_CREATE | G_BINDING_INVERT_BOOLEAN, whose names a release build did not find.
        g_object_bind_property(
            UnsafeMutableRawPointer(controls), "empty", UnsafeMutableRawPointer(controls), "visible", GBindingFlags(rawValue: 0b110))
        return controls
    }

    /// A status dot, drawn from the stylesheet (size, round corners, colour by state class)
    /// rather than set as "●" in a font: the desktop's font (Cantarell) has no such glyph, and GTK
    /// loaded a fallback font for it in the first frame. Silent: what holds it says the state.
    public static func dot(classes: [String]) -> Widget {
        let dot = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_widget_set_valign(dot, GTK_ALIGN_CENTER)
        gtk_widget_set_halign(dot, GTK_ALIGN_CENTER)
        addClasses(dot, classes)
        Accessibility.hide(dot)
        return dot
    }

    public static func setText(_ label: Widget, _ text: String) {
        let wasEmpty = gtk_label_get_text(OpaquePointer(label)).map { $0.pointee == 0 } ?? true
        gtk_label_set_text(OpaquePointer(label), text)
        if wasEmpty != text.isEmpty { Accessibility.hide(label, text.isEmpty) }
    }

    /// A button whose label may hold a mnemonic ("_Go").
    public static func button(_ text: String, classes: [String] = [], action: @escaping @MainActor () -> Void) -> Widget {
        let button = gtk_button_new_with_mnemonic(text)!
        Accessibility.nameFromLabel(button, text)
        addClasses(button, classes)
        Signals.connect(UnsafeMutableRawPointer(button), "clicked", action)
        return button
    }

    /// A new label for a button made by `button`; it may hold a mnemonic.
    public static func setButtonLabel(_ button: Widget, _ text: String) {
        gtk_button_set_label(gtkCast(button, to: GtkButton.self), text)
        gtk_button_set_use_underline(gtkCast(button, to: GtkButton.self), 1)
        Accessibility.nameFromLabel(button, text)
    }

    /// A stack that measures only the child it shows. GTK's default (homogeneous) measures every
    /// child, shown or not, and a hidden child's wrapped labels are laid out again at each measure:
    /// the chat's hidden welcome view was 1,256 of the 1,727 runs Pango shaped before the first frame.
    public static func stack() -> Widget {
        stackWithoutPages()
    }

    /// Adds `child` to `stack` as the page `name`; `label` is what a screen reader calls the page.
    public static func addPage(_ stack: Widget, _ child: Widget, name: String, label: String) {
        gtk_stack_add_named(OpaquePointer(stack), child, name)
        Accessibility.setPageLabel(stack, child: child, label)
    }

    private static func stackWithoutPages() -> Widget {
        let stack = gtk_stack_new()!
        gtk_stack_set_hhomogeneous(OpaquePointer(stack), 0)
        gtk_stack_set_vhomogeneous(OpaquePointer(stack), 0)
        return stack
    }

    /// A list box in a scroller that fills the height it is given and scrolls only up and down.
    public static func scrolledList(
        name: String, accessibleLabel: String, selection: GtkSelectionMode, classes: [String] = []
    ) -> (list: Widget, scroller: Widget) {
        let list = gtk_list_box_new()!
        gtk_widget_set_name(list, name)
        Accessibility.setLabel(list, accessibleLabel)
        addClasses(list, classes)
        gtk_list_box_set_selection_mode(OpaquePointer(list), selection)
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(OpaquePointer(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(OpaquePointer(scroller), list)
        gtk_widget_set_vexpand(scroller, 1)
        return (list, scroller)
    }

    public static func vbox(spacing: Int32 = 0, classes: [String] = [], _ children: [Widget] = []) -> Widget {
        box(GTK_ORIENTATION_VERTICAL, spacing, classes, children)
    }

    public static func hbox(spacing: Int32 = 0, classes: [String] = [], _ children: [Widget] = []) -> Widget {
        box(GTK_ORIENTATION_HORIZONTAL, spacing, classes, children)
    }

    private static func box(_ orientation: GtkOrientation, _ spacing: Int32, _ classes: [String], _ children: [Widget]) -> Widget {
        let box = gtk_box_new(orientation, spacing)!
        addClasses(box, classes)
        children.forEach { append(box, $0) }
        return box
    }

    public static func append(_ box: Widget, _ child: Widget) {
        gtk_box_append(gtkCast(box, to: GtkBox.self), child)
    }

    /// A widget that takes the free space in a box (pushes what follows to the end).
    public static func spacer(vertical: Bool = true) -> Widget {
        let spacer = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        if vertical { gtk_widget_set_vexpand(spacer, 1) } else { gtk_widget_set_hexpand(spacer, 1) }
        return spacer
    }

    public static func addClasses(_ widget: Widget, _ classes: [String]) {
        classes.forEach { gtk_widget_add_css_class(widget, $0) }
    }

    public static func setClass(_ widget: Widget, _ name: String, _ on: Bool) {
        if on { gtk_widget_add_css_class(widget, name) } else { gtk_widget_remove_css_class(widget, name) }
    }

    public static func setVisible(_ widget: Widget, _ visible: Bool) { gtk_widget_set_visible(widget, visible ? 1 : 0) }
    public static func setSensitive(_ widget: Widget, _ on: Bool) { gtk_widget_set_sensitive(widget, on ? 1 : 0) }

    public static func margins(_ widget: Widget, top: Int32 = 0, bottom: Int32 = 0, start: Int32 = 0, end: Int32 = 0) {
        gtk_widget_set_margin_top(widget, top)
        gtk_widget_set_margin_bottom(widget, bottom)
        gtk_widget_set_margin_start(widget, start)
        gtk_widget_set_margin_end(widget, end)
    }

    public static func align(_ widget: Widget, h: GtkAlign? = nil, v: GtkAlign? = nil) {
        if let h { gtk_widget_set_halign(widget, h) }
        if let v { gtk_widget_set_valign(widget, v) }
    }

    public static func size(_ widget: Widget, width: Int32 = -1, height: Int32 = -1) {
        gtk_widget_set_size_request(widget, width, height)
    }

    /// A flow box of `minPerLine`…`maxPerLine` children a line, nothing selectable (cards).
    public static func flowBox(minPerLine: UInt32, maxPerLine: UInt32, spacing: UInt32, homogeneous: Bool = false) -> Widget {
        let flow = gtk_flow_box_new()!
        let box = OpaquePointer(flow)
        gtk_flow_box_set_min_children_per_line(box, minPerLine)
        gtk_flow_box_set_max_children_per_line(box, maxPerLine)
        gtk_flow_box_set_homogeneous(box, homogeneous ? 1 : 0)
        gtk_flow_box_set_selection_mode(box, GTK_SELECTION_NONE)
        gtk_flow_box_set_row_spacing(box, spacing)
        gtk_flow_box_set_column_spacing(box, spacing)
        return flow
    }

    /// A single-line text entry; `onChange` runs on every edit, `onActivate` on Enter.
    public static func entry(
        placeholder: String = "", classes: [String] = [], password: Bool = false,
        onChange: @escaping @MainActor (String) -> Void = { _ in },
        onActivate: @escaping @MainActor () -> Void = {}
    ) -> Widget {
        let entry = gtk_entry_new()!
        let opaque = gtkCast(entry, to: GtkEntry.self)
        gtk_entry_set_placeholder_text(opaque, placeholder)
        if password {
            gtk_entry_set_visibility(opaque, 0)
            gtk_entry_set_input_purpose(opaque, GTK_INPUT_PURPOSE_PASSWORD)
        }
        addClasses(entry, classes)
        Signals.connect(UnsafeMutableRawPointer(entry), "changed") { onChange(text(of: entry)) }
        Signals.connect(UnsafeMutableRawPointer(entry), "activate", onActivate)
        return entry
    }

    public static func text(of editable: Widget) -> String {
        String(cString: gtk_editable_get_text(OpaquePointer(editable)))
    }

    public static func setText(ofEditable editable: Widget, _ text: String) {
        gtk_editable_set_text(OpaquePointer(editable), text)
    }

    /// The whole text of a GtkTextBuffer (a multi-line field's).
    public static func text(ofBuffer buffer: UnsafeMutablePointer<GtkTextBuffer>) -> String {
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_bounds(buffer, &start, &end)
        guard let copy = gtk_text_buffer_get_text(buffer, &start, &end, 0) else { return "" }
        defer { g_free(copy) }
        return String(cString: copy)
    }
}

/// A widget filled in later, for closures made before the widget exists (an entry whose Enter
/// handler reads the entry itself).
@MainActor
public final class WidgetRef {
    public var widget: Widget?
    public init() {}
}
