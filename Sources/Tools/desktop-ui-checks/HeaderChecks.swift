import BuilderOSKit
import CGtk
import DesktopUI
import GtkKit

/// The main window's header at the design's minimum width and at a wide one: the window can be made that
/// narrow, every part shown lies inside the header without covering another, and what gives way where it is
/// narrow (`MainWindow.headerContent`) gives way only for want of room, keeping what a screen reader says.
@MainActor
enum HeaderChecks {
    static func narrowAndWide(_ d: Driver, _ main: Widget, screenshot: String) async {
        guard let content = d.widget("header-content", in: main), let pages = d.widget("page-switcher", in: main),
            let state = d.widget("connection-state", in: main), let title = d.widget("header-title", in: main)
        else { return d.expect(false, "the header's parts are there") }
        let window = gtkCast(main, to: GtkWindow.self)
        let narrowest = Int32(DesignTokens.shipped?.layout("window-min-width") ?? 0)
        var minimum: Int32 = 0
        gtk_widget_measure(main, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, nil, nil, nil)
        d.expect(minimum <= narrowest, "the main window can be as narrow as the design's minimum", "\(minimum) px against \(narrowest)")
        var width: Int32 = 0, height: Int32 = 0
        gtk_window_get_default_size(window, &width, &height)
        // The window's frame (client-side decorations) is in the default size and not in the widget's width.
        let frame = width - gtk_widget_get_width(main)

        gtk_window_set_default_size(window, narrowest, height)
        d.expect(await d.wait { gtk_widget_get_width(main) == narrowest - frame }, "the window narrows", "\(gtk_widget_get_width(main)) px")
        await d.nextFrame(main)
        fits(d, content, "narrow")
        let tabs = WidgetTree.children(pages)
        let iconic = tabs.map { button in gtk_button_get_child(gtkCast(button, to: GtkButton.self)).map { !WideOrNarrow.isWide($0) } ?? false }
        d.expect(!tabs.isEmpty && Set(iconic).count == 1, "the pages show all as names or all as icons", "\(iconic)")
        gaveWayOnlyForWant(d, content, title: title, state: state, pages: pages, pagesAsIcons: iconic.first ?? false)
        let spoken = tabs.compactMap { Accessibility.label(of: $0) }
        let titles = d.widget("pages", in: main).map { stack in
            WidgetTree.children(stack).compactMap {
                gtk_stack_get_page(OpaquePointer(stack), $0).flatMap { gtk_stack_page_get_title($0) }.map { String(cString: $0) }
            }
        }
        d.expect(!spoken.isEmpty && spoken == titles, "each page keeps its spoken name", "\(spoken) against \(titles ?? [])")
        await d.screenshot(main, "\(screenshot)-narrow")

        gtk_window_set_default_size(window, 1280, height)
        d.expect(await d.wait { gtk_widget_get_width(main) == 1280 - frame }, "the window widens", "\(gtk_widget_get_width(main)) px")
        await d.nextFrame(main)
        fits(d, content, "wide")
        d.expect(gtk_widget_get_child_visible(title) != 0 && WideOrNarrow.isWide(state), "where it is wide the title and the state's words show")
        d.expect(
            WidgetTree.children(pages).allSatisfy { button in
                gtk_button_get_child(gtkCast(button, to: GtkButton.self)).map(WideOrNarrow.isWide) ?? false
            },
            "and the pages' names")

        gtk_window_set_default_size(window, width, height)
        d.expect(await d.wait { gtk_widget_get_width(main) == width - frame }, "the window takes its size back")
        await d.nextFrame(main)
    }

    /// What gave way had no room (what fits is given back: the title, then the state's words, are kept when the
    /// pages' icons leave room for them), and the pages' names had none even with both given up. Widths as laid out.
    private static func gaveWayOnlyForWant(_ d: Driver, _ content: Widget, title: Widget, state: Widget, pages: Widget, pagesAsIcons: Bool) {
        let shown = WidgetTree.children(content).filter { gtk_widget_get_visible($0) != 0 && gtk_widget_get_child_visible($0) != 0 }
        let boxes = shown.map(allocation).sorted { $0.x < $1.x }
        let spacing = zip(boxes, boxes.dropFirst()).map { $1.x - ($0.x + $0.width) }.min() ?? 0
        let used = boxes.map(\.width).reduce(0, +) + spacing * Int32(max(boxes.count - 1, 0))
        let width = gtk_widget_get_width(content)
        let titleShown = gtk_widget_get_child_visible(title) != 0
        let titleNeeds = natural(title) + spacing
        let stateExtra = natural(state) - allocation(state).width
        let stateWide = WideOrNarrow.isWide(state)
        d.expect(titleShown || used + titleNeeds > width, "the title gave way for want of room", "\(used) + \(titleNeeds) in \(width)")
        d.expect(stateWide || used + stateExtra > width, "the state's words gave way for want of room", "\(used) + \(stateExtra) in \(width)")
        let leanest = used - (titleShown ? titleNeeds : 0) - (stateWide ? allocation(state).width - minimum(state) : 0)
        let pagesExtra = natural(pages) - allocation(pages).width
        d.expect(
            !pagesAsIcons || leanest + pagesExtra > width, "the pages' names gave way for want of room", "\(leanest) + \(pagesExtra) in \(width)")
    }

    private static func allocation(_ widget: Widget) -> GtkAllocation {
        var box = GtkAllocation()
        gtk_widget_get_allocation(widget, &box)
        return box
    }

    private static func natural(_ widget: Widget) -> Int32 {
        var natural: Int32 = 0
        gtk_widget_measure(widget, GTK_ORIENTATION_HORIZONTAL, -1, nil, &natural, nil, nil)
        return natural
    }

    private static func minimum(_ widget: Widget) -> Int32 {
        var minimum: Int32 = 0
        gtk_widget_measure(widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, nil, nil, nil)
        return minimum
    }

    /// Every part the header shows is inside it, at least its minimum width, left of the next one.
    private static func fits(_ d: Driver, _ content: Widget, _ name: String) {
        let shown = WidgetTree.children(content).filter { gtk_widget_get_visible($0) != 0 && gtk_widget_get_child_visible($0) != 0 }
        var boxes: [GtkAllocation] = []
        for child in shown {
            var box = GtkAllocation()
            gtk_widget_get_allocation(child, &box)
            var least: Int32 = 0
            gtk_widget_measure(child, GTK_ORIENTATION_HORIZONTAL, -1, &least, nil, nil, nil)
            d.expect(box.width >= least, "\(name): \(typeName(child)) has at least its minimum width", "\(box.width) < \(least)")
            boxes.append(box)
        }
        let width = gtk_widget_get_width(content)
        d.expect(
            boxes.allSatisfy { $0.x >= 0 && $0.x + $0.width <= width }, "\(name): every part is inside the header",
            "\(boxes.map { ($0.x, $0.width) }) in \(width)")
        let ordered = boxes.sorted { $0.x < $1.x }
        d.expect(
            zip(ordered, ordered.dropFirst()).allSatisfy { $0.x + $0.width <= $1.x }, "\(name): no part covers another",
            "\(ordered.map { ($0.x, $0.width) })")
    }

    private static func typeName(_ widget: Widget) -> String {
        g_type_name_from_instance(UnsafeMutablePointer<GTypeInstance>(OpaquePointer(widget))).map { String(cString: $0) } ?? "?"
    }
}
