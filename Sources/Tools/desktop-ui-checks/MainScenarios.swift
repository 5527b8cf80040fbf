import BuilderOSKit
import CGtk
import DesktopUI
import Foundation
import GtkKit

/// The main window against builderos-server: chat (send, stream, Markdown, quick actions,
/// conversations), Dashboard, Connection, Power (sleep, Wake-on-LAN), page windows, and what a
/// restart restores. The test signs in with the CLI first, so the app opens the main window.
@MainActor
enum MainScenarios: ScenarioGroup {
    static let scenarios: [String: Scenario] = ["pages": pages, "restart": restart, "rightToLeft": rightToLeft, "glStart": glStart]

    /// The active server's history, as the app keeps it.
    static func history() -> HistoryStore? {
        let file = SettingsStore().load().activeServer?.historyFile ?? HistoryStore.firstFileName
        return try? HistoryStore(path: HistoryStore.path(forFile: file))
    }

    static func connectedMainWindow(_ d: Driver) async -> Widget? {
        guard await d.wait(until: { d.window(named: "main-window") != nil }), let main = d.window(named: "main-window") else {
            d.expect(false, "the main window opens")
            return nil
        }
        d.expect(await d.wait { indicator(d, main) == d.translated("Connected") }, "the header says Connected", indicator(d, main))
        return main
    }

    /// GTK's own buttons (header, sidebar, composer) draw neither the default theme's gradient nor
    /// its drop shadow (`StyleSheetGenerator.widgetRules`; docs/performance.md, rule 40).
    static func ownButtonsFlat(_ d: Driver, _ main: Widget) async {
        await d.nextFrame(main)  // laid out: a widget waiting for its size draws nothing
        func isOwnButton(_ widget: Widget) -> Bool {
            let instance = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self)
            guard gtk_widget_get_mapped(widget) != 0, g_type_check_instance_is_a(instance, gtk_button_get_type()) != 0 else { return false }
            let classes = gtk_widget_get_css_classes(widget)
            defer { g_strfreev(classes) }
            var index = 0
            while let name = classes?[index] {
                if String(cString: name).hasPrefix(StyleSheetGenerator.prefix) { return false }
                index += 1
            }
            return true
        }
        let buttons = WidgetTree.all(main).filter(isOwnButton)
        let drawn = buttons.flatMap(RenderNodeKinds.of)
        let themed = drawn.filter { $0 == GSK_LINEAR_GRADIENT_NODE || $0 == GSK_OUTSET_SHADOW_NODE }
        d.expect(
            buttons.count >= 5 && themed.isEmpty, "GTK's own buttons are flat", "\(buttons.count) buttons, \(themed.count) gradients and shadows")
        // Outlines are rings of shadow, not rounded borders (rule 42): the entries, the composer
        // and the buttons, with a conversation open. A window has no parent to be drawn through, so
        // its children (content and header) are drawn one by one.
        let rounded = WidgetTree.children(main).reduce(0) { $0 + RenderNodeKinds.roundedBorders($1) }
        d.expect(
            rounded == 0, "the main window draws no rounded border",
            rounded == 0 ? "" : "drawn by " + drawingRoundedBorders(main).joined(separator: ", "))
    }

    /// GTK's theme is the app's trimmed copy (rule 44), parsed without errors, in the window's
    /// variant; and no widget it left out is made: not in any window open after every page was
    /// visited (menus and popovers included), the about dialog, the shortcuts window, nor GTK's own
    /// windows the app can show (the file chooser in each mode, the emoji chooser).
    static func gtkThemeTrimmed(_ d: Driver, _ main: Widget) async {
        let theme = GtkTheme.shared
        d.expect(
            theme.standsIn && theme.loadedDark == (d.app.appearance?.theme == .dark) && theme.errors == 0,
            "GTK's theme is the app's trimmed copy, in the window's variant, parsed without errors",
            "stands in \(theme.standsIn), dark \(String(describing: theme.loadedDark)), \(theme.errors) errors")
        // Parsed before GTK started, while the GL driver loaded, and used as parsed (rule 45).
        d.expect(
            theme.prepared?.used == true, "GTK's theme was parsed before GTK started and used as parsed",
            "\(String(describing: theme.prepared))")
        d.expect(
            ApplicationStyle.shared.preparedUsed, "the application's stylesheet was parsed before GTK started and used as parsed",
            "used \(ApplicationStyle.shared.preparedUsed)")
        await sessionThemeReplacesTheTrimmedCopy(d)
        let before = Set(toplevels())
        d.activate("app.about", in: main)
        d.activate("app.shortcuts", in: main)
        await d.settle()
        let made: [Widget] = [
            gtk_file_chooser_widget_new(GTK_FILE_CHOOSER_ACTION_OPEN), gtk_file_chooser_widget_new(GTK_FILE_CHOOSER_ACTION_SAVE),
            gtk_file_chooser_widget_new(GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER), gtk_emoji_chooser_new(),
        ].map { g_object_ref_sink(UnsafeMutableRawPointer($0)).assumingMemoryBound(to: GtkWidget.self) }
        defer { made.forEach { g_object_unref(UnsafeMutableRawPointer($0)) } }
        let windows = toplevels()
        d.expect(windows.count >= before.count + 2, "the about dialog and the shortcuts window open", "\(windows.count) windows")
        let names = Set((windows + made).flatMap(WidgetTree.all).map { String(cString: gtk_widget_get_css_name($0)) })
        let absent = names.intersection(GtkThemeTrim.absentWidgets)
        d.expect(absent.isEmpty, "no widget the trimmed theme left out is made", "\(absent.sorted())")
        for window in windows where !before.contains(window) { gtk_window_destroy(gtkCast(window, to: GtkWindow.self)) }
        await d.settle()
    }

    static func sessionThemeReplacesTheTrimmedCopy(_ d: Driver) async {
        let theme = GtkTheme.shared
        // A session theme of the user's (GTK's high contrast here) replaces the copy, which comes back after.
        let settings = UnsafeMutableRawPointer(gtk_settings_get_default()!)
        let sessionTheme = Properties.string(settings, "gtk-theme-name") ?? ""
        let dark = theme.loadedDark
        Properties.setString(settings, "gtk-theme-name", "HighContrast")
        await d.settle()
        d.expect(
            await d.wait { dark != nil && !theme.standsIn && theme.loadedDark == nil }, "a high-contrast session theme replaces the trimmed copy")
        Properties.setString(settings, "gtk-theme-name", sessionTheme)
        await d.settle()
        d.expect(await d.wait { theme.standsIn && theme.loadedDark == dark }, "GTK's own theme again: the trimmed copy is back")
    }

    static func toplevels() -> [Widget] {
        let list = gtk_window_get_toplevels()!
        return (0..<g_list_model_get_n_items(list)).map { index in
            let object = g_list_model_get_item(list, index)!
            g_object_unref(object)  // the list still holds it
            return object.assumingMemoryBound(to: GtkWidget.self)
        }
    }

    /// The empty chat's header draws no gradient, and the logo draws its gradient the way the
    /// window's renderer draws cheapest: a CSS gradient under cairo, cairo in a drawing area under GL (rule 43).
    static func emptyChatWithoutGradient(_ d: Driver, _ main: Widget) async {
        await d.nextFrame(main)
        let header = WidgetTree.all(main).filter { String(cString: gtk_widget_get_css_name($0)) == "headerbar" }.flatMap(RenderNodeKinds.of)
        let logo = d.widget("welcome", in: main).map(RenderNodeKinds.of) ?? []
        let cairo = WindowRenderer.isCairo(main) ?? true
        let logoDrawn =
            cairo
            ? logo.contains(GSK_LINEAR_GRADIENT_NODE) && !logo.contains(GSK_CAIRO_NODE)
            : logo.contains(GSK_CAIRO_NODE) && !logo.contains(GSK_LINEAR_GRADIENT_NODE)
        d.expect(
            !header.contains(GSK_LINEAR_GRADIENT_NODE) && logoDrawn, "the header draws no gradient; the logo's is drawn the renderer's cheapest way",
            "renderer cairo \(cairo), header \(header.map(\.rawValue)), logo \(logo.map(\.rawValue))")
    }

    /// The widgets whose own drawing, not their children's, has a rounded border.
    static func drawingRoundedBorders(_ main: Widget) -> [String] {
        WidgetTree.all(main).filter { widget in
            guard gtk_widget_get_mapped(widget) != 0 else { return false }
            let inChildren = WidgetTree.children(widget).reduce(0) { $0 + RenderNodeKinds.roundedBorders($1) }
            return RenderNodeKinds.roundedBorders(widget) > inChildren
        }.map { String(cString: gtk_widget_get_css_name($0)) }
    }

    /// The fonts of the first frame (`StartFonts`, `FontPreload`): a first start loads the shipped
    /// seed's while GTK starts, for its language, and the seed has every font its first frame uses;
    /// later starts load the last start's, for the settings GTK lays text out with; after the first
    /// frame the file holds what the window's labels use.
    static func firstFrameFontsKept(_ d: Driver, _ main: Widget, firstStart: Bool) async {
        let now = FontPreload.describe(main, limit: StartFonts.limit)
        let body = DesignTokens.shipped?.typography.styles["body"].map { "\(Int($0.size))px" } ?? "?"
        d.expect(
            now.fonts.contains { $0.hasSuffix(" \(body)") } && now.context.split(separator: " ").count == 6,
            "the window's fonts and text settings are described (the body text at \(body))", "\(now)")
        // Status dots are drawn (`UI.dot`, rule 41): no font sets a "●" for them.
        d.expect(!now.characters.joined().contains("●"), "the first frame sets no dot in a font", "\(now.characters)")
        if firstStart {
            let seed = StartFonts.seed(language: FontPreload.defaultLanguage)
            d.expect(
                seed.map { seed in FontPreload.loaded.map { $0.fonts == seed.fonts && $0.context == seed.context } ?? FontPreload.leftBehind }
                    ?? false,
                "a first start loaded the shipped seed's fonts beside GTK's start, for its language (or left a slow loading behind)",
                "\(String(describing: FontPreload.loaded)), left behind: \(FontPreload.leftBehind)")
            d.expect(
                Set(now.fonts).isSubset(of: seed?.fonts ?? []),
                "the seed has every font a first start's first frame uses (else: meson-helpers/update-start-fonts-seed)",
                "first frame: \(now.fonts), seed: \(seed?.fonts ?? [])")
        } else {
            // On a machine busy enough (the tests' own), the loading may still be going when the
            // window is built: GTK then loads the fonts itself (`FontPreload.finish`).
            let loaded = FontPreload.loaded
            d.expect(
                loaded.map { !$0.fonts.isEmpty && $0.context == now.context } ?? FontPreload.leftBehind,
                "this start loaded the last first frame's fonts beside GTK's start, for GTK's text settings (or left a slow loading behind)",
                "\(String(describing: loaded)) now \(now.context), left behind: \(FontPreload.leftBehind)")
        }
        // On X11 GDK sets GL up at display open: its driver was loaded beside the start. On Wayland only
        // the GL renderer loads it (the tests draw with cairo), and then nothing is preloaded.
        let x11 = d.onX11
        d.expect(
            (GLDriverPreload.loadedPath != nil) == x11,
            x11
                ? "GTK's GL driver was loaded on a thread of its own beside the start"
                : "no GL driver is preloaded for the cairo renderer on Wayland",
            "preloaded: \(GLDriverPreload.loadedPath ?? "nothing")")
        d.expect(!GLPrepare.finish(), "nothing sets GL up beside the start for the cairo renderer")
        // Kept as the first frame had them (the window may use more fonts since: a state that came later).
        d.expect(
            await d.wait { StartFonts.read().map { $0.context == now.context && $0.fonts.contains { $0.hasSuffix(" \(body)") } } ?? false },
            "the first frame's fonts are kept for the next start", "\(String(describing: StartFonts.read()))")
    }

    /// The app's icon (`AppIcon`): given once the first window has painted, to it and as the
    /// default for windows to come (realized with it, the window loaded every size of it inside its
    /// first frame).
    static func windowIconGiven(_ d: Driver, _ main: Widget) async {
        let window = gtkCast(main, to: GtkWindow.self)
        d.expect(
            await d.wait { gtk_window_get_icon_name(window).map { String(cString: $0) } == BuilderOSKit.applicationID },
            "the main window has the app's icon after its first frame",
            gtk_window_get_icon_name(window).map { String(cString: $0) } ?? "none")
        d.expect(
            gtk_window_get_default_icon_name().map { String(cString: $0) } == BuilderOSKit.applicationID,
            "windows opened later get the app's icon")
        // On Wayland the compositor shows the icon of the desktop file named by the window's app id, which
        // GTK takes from the application's id: the two must be the same name.
        let id = g_application_get_application_id(UnsafeMutableRawPointer(d.app.application).assumingMemoryBound(to: GApplication.self))
        let entry = SourceTree.root.appendingPathComponent("data/\(BuilderOSKit.applicationID).desktop").path
        d.expect(
            id.map { String(cString: $0) } == BuilderOSKit.applicationID && FileManager.default.fileExists(atPath: entry),
            "the app id names the desktop file, whose icon Wayland shows")
    }

    /// The benchmarks' window: connected, 1100 × 800, on the chat page.
    static func benchmarkChat(_ d: Driver) async -> Widget? {
        guard let main = await connectedMainWindow(d) else { return nil }
        gtk_window_set_default_size(gtkCast(main, to: GtkWindow.self), 1100, 800)
        d.activate(PageID.chat.windowAction, in: main)
        await d.settle()
        return main
    }

    /// What the message list's first frame after a conversation opened showed (`OpeningFrame`),
    /// as the list tags itself once that frame is painted: rows in view, placeholders in view,
    /// placeholders beyond the view.
    static func openingFrame(_ d: Driver, _ window: Widget) async -> (inView: Int, placeholdersInView: Int, beyond: Int)? {
        let tag = { d.widget("message-list", in: window).flatMap { WidgetTree.stateName(of: $0) } }
        guard await d.wait(until: { tag()?.hasPrefix("opened:") ?? false }), let text = tag() else { return nil }
        let numbers = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard numbers.count == 3 else { return nil }
        return (numbers[0], numbers[1], numbers[2])
    }

    static func indicator(_ d: Driver, _ window: Widget) -> String {
        d.widget("connection-indicator", in: window).map { String(cString: gtk_label_get_text(OpaquePointer($0))) } ?? ""
    }

    static func labelMarkup(_ window: Widget) -> String {
        WidgetTree.all(window).filter {
            g_type_check_instance_is_a(UnsafeMutableRawPointer($0).assumingMemoryBound(to: GTypeInstance.self), gtk_label_get_type()) != 0
        }
        .map { String(cString: gtk_label_get_label(OpaquePointer($0))) }.joined(separator: "\n")
    }

    static func completedReplies(_ d: Driver, _ w: Widget) -> Int { d.named(prefix: "message-assistant-complete", in: w).count }

    static func pages(_ d: Driver, _ c: ScenarioContext) async {
        guard let main = await connectedMainWindow(d) else { return }
        await firstFrameFontsKept(d, main, firstStart: true)
        d.expect(HistoryOpening.tookOpenedStore, "a first start made the history beside GTK's start, and the window took it")
        d.expect(
            gtk_window_get_focus(gtkCast(main, to: GtkWindow.self)).map { $0 == d.widget("message-input", in: main) } ?? false,
            "the window opens with the keyboard focus in the composer")
        await windowIconGiven(d, main)
        for (index, page) in ["chat", "dashboard", "connection", "power"].enumerated() {
            d.expect(d.accelerator(for: "win.page-\(page)") == "<Control>\(index + 1)", "Ctrl+\(index + 1) opens \(page)")
        }
        d.expect(
            d.accelerator(for: "win.quick-actions") == "<Control>k" && d.accelerator(for: "win.refresh") == "F5",
            "Ctrl+K opens quick actions and F5 refreshes")
        await chat(d, main, c)
        await ownButtonsFlat(d, main)
        await dashboard(d, main)
        await connection(d, main)
        await power(d, main, c)
        d.activate("win.open-page-window", in: main)
        d.expect(await d.wait { d.window(named: "page-window-power") != nil }, "Open in New Window opens the page in its own window")
        if let pageWindow = d.window(named: "page-window-power") {
            d.expect(indicator(d, pageWindow) == "Connected", "the page window shows the same connection state")
            await d.screenshot(pageWindow, "page-window")
            gtk_window_destroy(gtkCast(pageWindow, to: GtkWindow.self))
        }
        await gtkThemeTrimmed(d, main)
        // Secret-leak check while everything runs: no process's command line or environment holds the key.
        let hits = ProcessScan.processesMentioning(c.key)
        d.expect(hits.isEmpty, "no process's command line or environment contains the API key", "\(hits)")
        // Closing remembers the size (and the page: Power) for the restart scenario.
        gtk_window_set_default_size(gtkCast(main, to: GtkWindow.self), 1100, 760)
        gtk_window_close(gtkCast(main, to: GtkWindow.self))
        await d.settle()
    }

    /// A file over 50 MB is refused before anything is sent; a small one uploads with the message.
    static func attachments(_ d: Driver, _ main: Widget, _ c: ScenarioContext) async {
        guard let small = c.options["attachment"], let large = c.options["large-attachment"] else {
            return d.expect(false, "the test passes files to attach")
        }
        d.typeText("here is a file", into: "message-input", in: main)
        d.click("attach", in: main)
        d.expect(await d.chooseFile(large), "Attach opens a file chooser")
        d.expect(await d.wait { d.texts(main).contains("larger than 50 MB") }, "a file over 50 MB is refused with the reason", d.texts(main))
        d.expect(d.isSensitive("send", in: main), "the text stays, ready to send")
        d.click("attach", in: main)
        _ = await d.chooseFile(small)
        let name = (small as NSString).lastPathComponent
        d.expect(await d.wait { d.texts(main).contains(name) }, "the chosen file shows above the field")
        await d.screenshot(main, "attachment")
        d.click("send", in: main)
        d.expect(await d.wait { completedReplies(d, main) == 2 }, "the message goes out after the upload and gets a reply")
        let stored = MainScenarios.history().map { h in h.conversations().flatMap { h.messages(in: $0.id) } } ?? []
        let sent = stored.first { $0.text == "here is a file" }
        d.expect(
            sent?.attachments.first?.filename == name && sent?.attachments.first?.url.contains("/api/files/") == true,
            "the message carries the uploaded file's address", "\(String(describing: sent?.attachments))")
    }

    /// The input bar as the design draws it (002): ⚡ and Send are 36 px circles, the empty field one line about as
    /// tall; a long message grows the field up to its cap, then scrolls in it.
    static func inputBarShape(_ d: Driver, _ main: Widget) async {
        guard let send = d.widget("send", in: main), let quick = d.widget("quick-actions", in: main),
            let input = d.widget("message-input", in: main),
            let field = gtk_widget_get_ancestor(input, gtk_scrolled_window_get_type()).flatMap(gtk_widget_get_parent),
            let scroller = gtk_widget_get_ancestor(input, gtk_scrolled_window_get_type()), let tokens = DesignTokens.shipped
        else { return d.expect(false, "the input bar's buttons and field exist") }
        // Outer sizes (GTK's own width and height leave out padding and borders); ⚡'s is its menu button's button.
        func size(_ widget: Widget) -> (Int32, Int32) {
            var bounds = graphene_rect_t()
            _ = gtk_widget_compute_bounds(widget, widget, &bounds)
            return (Int32(bounds.size.width.rounded()), Int32(bounds.size.height.rounded()))
        }
        let side = Int32(tokens.size("input-bar-button"))
        let sizes = [send, gtk_widget_get_first_child(quick) ?? quick].map(size)
        d.expect(sizes.allSatisfy { $0 == (side, side) }, "⚡ and Send are \(side) px squares (circles)", "\(sizes)")
        let bolt = "builderos-quick-actions-symbolic"
        let image = WidgetTree.all(quick).first {
            g_type_check_instance_is_a(UnsafeMutableRawPointer($0).assumingMemoryBound(to: GTypeInstance.self), gtk_image_get_type()) != 0
        }
        let shown = image.flatMap { gtk_image_get_icon_name(OpaquePointer($0)) }.map { String(cString: $0) }
        let theme = gtk_icon_theme_get_for_display(gtk_widget_get_display(quick))
        d.expect(shown == bolt && gtk_icon_theme_has_icon(theme, bolt) != 0, "⚡ is the app's own icon, found in the icon theme", shown ?? "no image")
        // Rule 49 of docs/performance.md: an icon at a size the theme has not drawn is drawn from its SVG.
        let maps = (try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)) ?? ""
        d.expect(!maps.contains("librsvg"), "no icon of the window is drawn from its SVG (librsvg is not loaded)")
        // The test machine has an emoji font, as most desktops do (`install-deps`): ⚡ as text was drawn from it.
        d.expect(!maps.contains("NotoColorEmoji"), "and nothing is drawn from the emoji font")
        let empty = size(field).1
        d.expect(empty >= side && empty < side * 3 / 2, "the empty field is one line tall, about as tall as the buttons", "\(empty) px")
        d.typeText((1...30).map { "line \($0)" }.joined(separator: "\n"), into: "message-input", in: main)
        let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(scroller))
        let cap = Int32(tokens.layout("composer-max-height"))
        // Laid out at the next frames, which come late on a busy machine (GL drawn on the CPU): waited for.
        d.expect(
            await d.wait {
                gtk_widget_get_height(scroller) == cap && gtk_adjustment_get_upper(adjustment) > gtk_adjustment_get_page_size(adjustment)
            }, "thirty lines grow the field to its cap and scroll in it", "\(gtk_widget_get_height(scroller)) px of \(cap)")
        d.typeText("", into: "message-input", in: main)
        d.expect(await d.wait { size(field).1 == empty }, "emptied, it is one line again", "\(size(field).1) px")
    }

    static func chat(_ d: Driver, _ main: Widget, _ c: ScenarioContext) async {
        d.activate(PageID.chat.windowAction, in: main)
        await d.settle()
        d.expect(await d.wait { d.texts(main).contains("Welcome to BuilderOS") }, "an empty chat shows the welcome", d.texts(main))
        await d.screenshot(main, "chat-empty")
        await emptyChatWithoutGradient(d, main)
        d.expect(!d.isSensitive("send", in: main), "Send is disabled while the field is empty")
        await inputBarShape(d, main)
        d.typeText("Hello from the **desktop**", into: "message-input", in: main)
        d.expect(d.isSensitive("send", in: main), "Send is enabled with text")
        if let input = d.widget("message-input", in: main) {
            d.sendKey(0xff0d, to: input, modifiers: 1)  // Shift+Enter: the key is left to the field (a new line)
            d.expect(d.named(prefix: "message-user", in: main).isEmpty, "Shift+Enter does not send")
            let afterShiftEnter = d.textViewText("message-input", in: main)
            d.expect(afterShiftEnter == "Hello from the **desktop**\n", "Shift+Enter starts a new line", afterShiftEnter ?? "no field")
            d.sendKey(0xff0d, to: input)  // Enter sends
            let afterEnter = d.textViewText("message-input", in: main)
            d.expect(afterEnter == "", "Enter sends and leaves the field empty, without a line break of its own", afterEnter ?? "no field")
        }
        d.expect(d.named(prefix: "message-user", in: main).count == 1, "the message shows at once (optimistic)")
        d.expect(await d.wait { completedReplies(d, main) == 1 }, "the reply streams in and completes")
        await d.settle()
        let texts = d.texts(main)
        let markup = labelMarkup(main)
        d.expect(texts.contains("Jarvis here") && markup.contains("weight=\"bold\""), "the Markdown heading is rendered", texts)
        d.expect(markup.contains("<b>Markdown</b>") && markup.contains("<tt>inline code</tt>"), "bold and inline code are rendered")
        d.expect(
            d.widget("code-block", in: main) != nil && texts.contains("let greeting = \"Hello from BuilderOS\""),
            "the fenced code block is its own monospace block")
        d.expect(d.widget("copy-code", in: main) != nil, "code blocks have a Copy button")
        d.expect(texts.contains("Streaming") && texts.contains("a grid"), "the table is rendered as a grid")
        d.expect(markup.contains("<a href=\"https://builderos.example.com/guide\">"), "links are links")
        d.expect(!texts.contains("tts-summary") && !texts.contains("repeated your message"), "<tts-summary> is hidden")
        d.expect(texts.contains("Hello from the desktop"), "the conversation takes its first message as title, without the Markdown")
        if let copy = d.widget("copy-code", in: main) {
            Signals.emit(UnsafeMutableRawPointer(copy), "clicked")
            d.expect(String(cString: gtk_button_get_label(gtkCast(copy, to: GtkButton.self))) == "Copied", "Copy says Copied")
        }
        await d.screenshot(main, "chat")
        // Copy a message from its context menu (right-click on the row).
        if let row = d.named(prefix: "message-user", in: main).first {
            d.rightClick(row)
            await d.settle()
            d.expect(await d.wait { d.widget("copy-message", in: row) != nil }, "right-clicking a message offers Copy Text")
            d.click("copy-message", in: row)
            d.expect(
                d.clipboardText(of: main) == "Hello from the **desktop**", "Copy Text puts the message on the clipboard",
                d.clipboardText(of: main) ?? "nothing")
        } else {
            d.expect(false, "the user's message row is on screen")
        }
        await attachments(d, main, c)

        // Quick actions (Ctrl+K): the design's six, each sending its command.
        d.expect(
            d.widget("quick-actions-sheet", in: main) == nil && d.widget("new-chat-codex", in: main) == nil,
            "the quick actions and the new chat's agents are made when first opened, not for the first frame")
        d.activate("win.quick-actions", in: main)
        await d.settle()
        d.expect(
            await d.wait { d.widget("quick-actions-sheet", in: main).map { gtk_widget_get_visible($0) != 0 } ?? false },
            "Ctrl+K opens the quick actions")
        d.expect(d.named(prefix: "quick-action-", in: main).count == 6, "six quick actions")
        await d.screenshot(main, "quick-actions")
        // The sheet itself (a popover has a surface of its own; made when first opened).
        if let sheet = d.widget("quick-actions-sheet", in: main) { await d.screenshot(sheet, "quick-actions-sheet") }
        d.click("quick-action-0", in: main)
        d.expect(await d.wait { completedReplies(d, main) == 3 }, "System Status sends “Show system status” and gets a reply")
        // The long reply below it may push it off screen: the history says what the list holds.
        let stored = MainScenarios.history().map { h in h.conversations().flatMap { h.messages(in: $0.id) } } ?? []
        d.expect(stored.contains { $0.role == .user && $0.text == "Show system status" }, "the quick action's command is the user's next message")

        // A second conversation, with Codex; rename; delete asks first.
        d.popup("new-chat", in: main)
        d.click("new-chat-codex", in: main)
        await d.settle()
        d.expect(await d.wait { d.texts(main).contains("Welcome to BuilderOS") }, "a new conversation starts empty")
        d.typeText("codex, are you there?", into: "message-input", in: main)
        d.click("send", in: main)
        d.expect(await d.wait { completedReplies(d, main) == 1 && d.texts(main).contains("Codex here") }, "Codex answers in its own conversation")
        d.click("rename-conversation", in: main)
        d.expect(await d.wait { d.window(named: "rename-dialog") != nil }, "Rename asks for a name")
        if let dialog = d.window(named: "rename-dialog") {
            d.type("Codex check", into: "prompt-entry", in: dialog)
            d.click("confirm-button", in: dialog)
        }
        d.expect(await d.wait { d.texts(main).contains("Codex check") }, "the new name shows")
        d.click("delete-conversation", in: main)
        d.expect(await d.wait { d.window(named: "delete-confirm") != nil }, "Delete asks first")
        if let confirm = d.window(named: "delete-confirm") {
            await d.screenshot(confirm, "delete-confirm")
            d.click("confirm-button", in: confirm)
        }
        d.expect(await d.wait { !d.texts(main).contains("Codex check") }, "the deleted conversation is gone")
        // Its rows get their text in the frame that shows them (`OpeningFrame`).
        d.expect(await d.wait { d.texts(main).contains("Show system status") }, "the remaining conversation opens")
    }

    static func capsuleTiles(_ d: Driver, _ w: Widget) -> [Widget] {
        d.named(prefix: "capsule-", in: w).filter { String(cString: gtk_widget_get_name($0)) != "capsule-filter" }
    }

    static func dashboard(_ d: Driver, _ main: Widget) async {
        d.activate(PageID.dashboard.windowAction, in: main)
        d.expect(await d.wait { capsuleTiles(d, main).count > 1 }, "the Dashboard lists capsules")
        d.expect(await d.wait { !d.texts(main).contains("Loading…") }, "status loads", d.texts(main))
        let texts = d.texts(main)
        d.expect(texts.contains("System status") && texts.contains(ReferenceVersion.value), "the status card shows the version", texts)
        d.expect(texts.contains("WebSocket"), "the connection card shows the transport")
        await d.screenshot(main, "dashboard")
        let all = capsuleTiles(d, main).count
        let first = capsuleTiles(d, main)[0]
        let name = String(String(cString: gtk_widget_get_name(first)).dropFirst("capsule-".count))
        d.type(name, into: "capsule-filter", in: main)
        d.expect(await d.wait { capsuleTiles(d, main).count < all }, "the filter narrows the grid")
        if let tile = capsuleTiles(d, main).first { Signals.emit(UnsafeMutableRawPointer(tile), "clicked") }
        d.expect(
            await d.wait { d.window(named: "capsule-detail").map { d.texts($0).contains("Path") } ?? false },
            "a capsule opens its details with its path")
        if let detail = d.window(named: "capsule-detail") {
            // Laid out at the next frames: waited for.
            d.expect(await d.wait { tallAsItsContent(detail).0 }, "the details window is as tall as its content needs", tallAsItsContent(detail).1)
            let focus = gtk_window_get_focus(gtkCast(detail, to: GtkWindow.self))
            d.expect(focus.map { d.isA($0, gtk_button_get_type()) } ?? false, "the keyboard starts on Close, not in a selectable label")
            let selected = WidgetTree.all(detail).filter { widget in
                var start: Int32 = 0, end: Int32 = 0
                return d.isA(widget, gtk_label_get_type()) && gtk_label_get_selection_bounds(OpaquePointer(widget), &start, &end) != 0
            }
            let selectedTexts = selected.map { String(cString: gtk_label_get_text(OpaquePointer($0))) }
            d.expect(selected.isEmpty, "no text is selected as it opens", selectedTexts.joined(separator: ", "))
            await d.screenshot(detail, "capsule-detail")
            // The screenshot's theme changes have the window compute its size again.
            d.expect(tallAsItsContent(detail).0, "and still after a change of theme", tallAsItsContent(detail).1)
            gtk_window_destroy(gtkCast(detail, to: GtkWindow.self))
        }
        d.type("", into: "capsule-filter", in: main)
        d.activate("win.refresh", in: main)
        d.expect(await d.wait { capsuleTiles(d, main).count == all }, "F5 reloads the grid")
    }

    /// Whether the window's content is allocated the height it asks for at its width, and the sizes.
    private static func tallAsItsContent(_ window: Widget) -> (Bool, String) {
        guard let child = gtk_window_get_child(gtkCast(window, to: GtkWindow.self)) else { return (false, "no content") }
        // Measured with its margins, allocated without them.
        let width = gtk_widget_get_width(child) + gtk_widget_get_margin_start(child) + gtk_widget_get_margin_end(child)
        let height = gtk_widget_get_height(child) + gtk_widget_get_margin_top(child) + gtk_widget_get_margin_bottom(child)
        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_measure(child, GTK_ORIENTATION_VERTICAL, width, &minimum, &natural, nil, nil)
        return (abs(height - natural) <= 1, "\(height) px high, \(natural) px needed at \(width) px wide")
    }

    static func connection(_ d: Driver, _ main: Widget) async {
        d.activate(PageID.connection.windowAction, in: main)
        d.expect(await d.wait { d.texts(main).contains(" ms") }, "the Connection page shows the latency", d.texts(main))
        let texts = d.texts(main)
        d.expect(texts.contains("Recent activity") && texts.contains("Replies completed today"), "recent activity from local history")
        await d.screenshot(main, "connection")
        d.click("connect-button", in: main)
        d.expect(await d.wait { indicator(d, main) == "Disconnected" }, "Disconnect disconnects every indicator")
        d.expect(d.texts(main).contains("Connect"), "the button becomes Connect")
        await d.screenshot(main, "connection-disconnected")
        d.click("connect-button", in: main)
        d.expect(await d.wait { indicator(d, main) == "Connected" }, "Connect connects again")
    }

    static func power(_ d: Driver, _ main: Widget, _ c: ScenarioContext) async {
        d.activate(PageID.power.windowAction, in: main)
        d.expect(await d.wait { d.isSensitive("sleep-button", in: main) }, "Sleep is available when connected")
        d.click("sleep-button", in: main)
        d.expect(await d.wait { d.window(named: "sleep-confirm") != nil }, "Sleep asks first")
        if let confirm = d.window(named: "sleep-confirm") {
            await d.screenshot(confirm, "sleep-confirm")
            d.click("confirm-button", in: confirm)
        }
        d.expect(!d.isSensitive("sleep-button", in: main), "Sleep cannot be pressed twice while it runs")
        d.expect(await d.wait { d.texts(main).contains("going to sleep") }, "the server's answer is shown", d.texts(main))

        // Without a MAC address, Wake asks the server, which explains how it can be woken.
        d.expect(d.isSensitive("wake-button", in: main), "Wake is available when connected")
        d.click("wake-button", in: main)
        d.expect(
            await d.wait {
                d.widget("wake-result", in: main).map { gtk_label_get_text(OpaquePointer($0)).map { String(cString: $0) } ?? "" }?.isEmpty == false
            },
            "Wake without a MAC address shows the server's instructions", d.texts(main))
        await d.screenshot(main, "wake-instructions")

        // Wake-on-LAN: set the MAC and a broadcast address (the test's UDP listener) in Preferences.
        g_action_group_activate_action(OpaquePointer(d.app.application), "preferences", nil)
        guard await d.wait(until: { d.window(named: "preferences") != nil }), let prefs = d.window(named: "preferences") else {
            return d.expect(false, "Preferences opens")
        }
        d.type("3c:22:fb:12:34", into: "wol-mac", in: prefs)
        d.expect(d.widget("wol-problem", in: prefs).map { gtk_widget_get_visible($0) != 0 } ?? false, "a short MAC address is refused, with a reason")
        d.type("3c:22:fb:12:34:56", into: "wol-mac", in: prefs)
        d.type("127.0.0.1:\(c.options["wol-port"] ?? "9")", into: "wol-broadcast", in: prefs)
        d.expect(!(d.widget("wol-problem", in: prefs).map { gtk_widget_get_visible($0) != 0 } ?? true), "a valid MAC and broadcast are accepted")
        d.expect(SettingsStore().load().activeServer?.wakeMAC == "3c:22:fb:12:34:56", "and saved")
        d.expect(d.widget("trusted-authority", in: prefs) == nil, "the server card names no authority when none is trusted beside the system's")
        await d.screenshot(prefs, "preferences")
        gtk_window_destroy(gtkCast(prefs, to: GtkWindow.self))
        // With one trusted for the server (as the wizard's Trust a Certificate Authority… saves it), the card names it.
        let authority = "/home/user/ca/builderos-ca.pem"
        await withTrustedAuthority(authority) {
            g_action_group_activate_action(OpaquePointer(d.app.application), "preferences", nil)
            guard await d.wait(until: { d.window(named: "preferences") != nil }), let prefs = d.window(named: "preferences") else {
                return d.expect(false, "Preferences opens again")
            }
            let trusting = String(format: d.translated("Trusting the authorities in %@ for this server."), authority)
            d.expect(d.texts(prefs).contains(trusting), "the server card names the authority trusted for the server", d.texts(prefs))
            // Scrolled to the server card, at the end, for the screenshot.
            if let label = d.widget("trusted-authority", in: prefs), let scroller = gtk_widget_get_ancestor(label, gtk_scrolled_window_get_type()),
                let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(scroller))
            {
                _ = await d.wait { gtk_adjustment_get_upper(adjustment) > gtk_adjustment_get_page_size(adjustment) }
                gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment))
                await d.settle()
            }
            await d.screenshot(prefs, "preferences-authority")
            gtk_window_destroy(gtkCast(prefs, to: GtkWindow.self))
        }
        d.activate(PageID.chat.windowAction, in: main)
        d.activate(PageID.power.windowAction, in: main)
        d.expect(await d.wait { d.isSensitive("wake-button", in: main) }, "Wake is available with a MAC address")
        d.click("wake-button", in: main)
        d.expect(
            await d.wait { d.texts(main).contains("Wake-up packet sent") || d.texts(main).contains("The server is awake.") },
            "Wake sends the packet and watches for the server", d.texts(main))
        d.expect(await d.wait { d.texts(main).contains("The server is awake.") }, "the server is seen awake")
        await d.screenshot(main, "power")
    }

    /// Runs `body` with `authority` saved as the active server's extra certificate authority, then
    /// takes it off again (the scenario's server is plain HTTP: the file is never read).
    static func withTrustedAuthority(_ authority: String, _ body: () async -> Void) async {
        let store = SettingsStore()
        func setAuthority(_ path: String?) {
            var settings = store.load()
            guard let index = settings.servers.firstIndex(where: { $0.id == settings.activeServerID }) else { return }
            settings.servers[index].caFile = path
            try? store.save(settings)
        }
        setAuthority(authority)
        await body()
        setAuthority(nil)
    }

    /// The main window laid out right to left: the conversation list moves to the right, the
    /// user's bubbles to the left. Saved as a screenshot to look at.
    static func rightToLeft(_ d: Driver, _ c: ScenarioContext) async {
        guard let main = await connectedMainWindow(d) else { return }
        d.activate(PageID.chat.windowAction, in: main)
        d.typeText("مرحبا — hello from a right-to-left desktop", into: "message-input", in: main)
        d.click("send", in: main)
        d.expect(await d.wait { completedReplies(d, main) == 1 }, "the reply arrives")
        await d.wait(seconds: 3) { d.widget("message-list", in: main).map { gtk_widget_get_height($0) > 0 } ?? false }
        try? await Task.sleep(nanoseconds: 300_000_000)
        func x(_ name: String) -> Double {
            guard let w = d.widget(name, in: main) ?? d.named(prefix: name, in: main).first else { return -1 }
            var x = 0.0, y = 0.0
            _ = gtk_widget_translate_coordinates(w, main, 0, 0, &x, &y)
            return x
        }
        let width = Double(gtk_widget_get_width(main))
        d.expect(gtk_widget_get_direction(main) == GTK_TEXT_DIR_RTL, "the window is right to left")
        d.expect(x("conversations") > width / 2, "the conversation list is on the right", "\(x("conversations")) of \(width)")
        d.expect(x("send") < x("attach"), "Send is at the left end of the input bar")
        await d.screenshot(main, "chat")
        d.activate(PageID.connection.windowAction, in: main)
        await d.settle()
        await d.screenshot(main, "connection")
    }

    /// A start with GTK's GL renderer, the one GTK picks on a user's Wayland desktop (the other
    /// scenarios draw with cairo). On Wayland the renderer was set up on a thread of its own beside
    /// the start (`GLPrepare`); on X11 GDK sets GL up itself, over Xlib, and nothing is set up beside.
    /// Either way the window draws with GL, in both variants, and GTK's GL driver was loaded ahead.
    static func glStart(_ d: Driver, _ c: ScenarioContext) async {
        guard let main = await connectedMainWindow(d) else { return }
        await d.nextFrame(main)
        let x11 = d.onX11
        let prepared = GLPrepare.finish()
        d.expect(
            prepared == !x11,
            x11 ? "on X11 GTK sets GL up itself" : "GTK's GL renderer was set up on a thread of its own beside the start",
            "set up beside the start: \(prepared)")
        d.expect(WindowRenderer.isCairo(main) == false, "the window draws with GTK's GL renderer")
        d.expect(
            GLDriverPreload.loadedPath != nil, "GTK's GL driver was loaded on a thread of its own beside the start",
            "preloaded: \(GLDriverPreload.loadedPath ?? "nothing")")
        await d.screenshot(main, "gl")
    }

    /// A second start: history, page and window size come back.
    static func restart(_ d: Driver, _ c: ScenarioContext) async {
        guard let main = await connectedMainWindow(d) else { return }
        await firstFrameFontsKept(d, main, firstStart: false)
        var width: Int32 = 0, height: Int32 = 0
        gtk_window_get_default_size(gtkCast(main, to: GtkWindow.self), &width, &height)
        d.expect(width == 1100 && height == 760, "the window size is remembered", "\(width)×\(height)")
        d.expect(d.widget("power-page", in: main).map { gtk_widget_get_mapped($0) != 0 } ?? false, "the last page (Power) is shown again")
        d.activate(PageID.chat.windowAction, in: main)
        await d.wait(seconds: 5) { d.widget("message-list", in: main).map { gtk_widget_get_height($0) > 0 } ?? false }
        try? await Task.sleep(nanoseconds: 500_000_000)
        let texts = d.texts(main)
        // The conversation's title is its first message as it reads, without the Markdown.
        d.expect(
            texts.contains("Hello from the desktop") && texts.contains("Show system status") && texts.contains("Jarvis here"),
            "the conversation is restored from history", texts)
        d.expect(!texts.contains("Codex check"), "the deleted conversation stays deleted")
        // Opened on a hidden page, the conversation's first frame on screen had every row in view made.
        let opening = await openingFrame(d, main)
        d.expect(
            opening.map { $0.inView > 0 && $0.placeholdersInView == 0 } ?? false,
            "the first frame that shows the conversation has the text of every row in view", "\(String(describing: opening))")
        // Nothing hidden is made, measured or laid out for the first frame: no empty-conversation view.
        d.expect(d.widget("welcome", in: main) == nil, "a conversation with messages opens without building the welcome view")
        d.expect(d.widget("find-bar", in: main) == nil, "the find bar is made at the first Ctrl+F, not at start")
        d.expect(d.widget("search-results", in: main) == nil, "the history search's results are made at the first search, not at start")
        d.expect(HistoryOpening.tookOpenedStore, "the history was opened beside GTK's start, and the window took it")
        await d.screenshot(main, "chat-restored")
    }
}

/// The reference server's version, as the Dashboard must show it.
enum ReferenceVersion {
    static let value = "1.4.0-reference"
}
