import BuilderOSKit
import CGtk
import GtkKit

/// Ctrl+,: appearance, and the account (server, Change Server…, Sign Out…).
@MainActor
final class PreferencesWindow {
    let window: Widget

    init(parent: Widget?, appearance: AppearanceController, server: ServerAddress?,
         onAppearance: @escaping @MainActor (Appearance) -> Void,
         onChangeServer: @escaping @MainActor () -> Void, onSignOut: @escaping @MainActor () -> Void) {
        window = gtk_window_new()!
        let gwindow = gtkCast(window, to: GtkWindow.self)
        gtk_window_set_title(gwindow, L("Preferences"))
        gtk_window_set_default_size(gwindow, 520, -1)
        if let parent {
            gtk_window_set_transient_for(gwindow, gtkCast(parent, to: GtkWindow.self))
            gtk_window_set_modal(gwindow, 1)
        }
        gtk_widget_set_name(window, "preferences")
        UI.addClasses(window, [Style.app])

        var names = Appearance.allCases.map { strdup($0.title) } + [nil]
        defer { names.forEach { free($0) } }
        let dropDown = names.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                gtk_drop_down_new_from_strings($0)!
            }
        }
        gtk_widget_set_name(dropDown, "appearance")
        Accessibility.setLabel(dropDown, L("Appearance"))
        gtk_drop_down_set_selected(OpaquePointer(dropDown), UInt32(Appearance.allCases.firstIndex(of: appearance.preference) ?? 0))
        Signals.connect(UnsafeMutableRawPointer(dropDown), "notify::selected", withArgument: { _ in
            let index = Int(gtk_drop_down_get_selected(OpaquePointer(dropDown)))
            guard Appearance.allCases.indices.contains(index) else { return }
            onAppearance(Appearance.allCases[index])
        })
        let appearanceHint = UI.label(appearance.followsPortal
                                      ? L("Automatic follows your desktop's dark style setting.")
                                      : L("Automatic follows your GTK theme's dark style setting."),
                                      classes: [Style.label, Style.dim])
        let appearanceRow = UI.hbox(spacing: Style.gap, [
            UI.vbox(spacing: 2, [UI.label(L("Appearance"), classes: [Style.headline]), appearanceHint]), dropDown,
        ])
        UI.align(dropDown, v: GTK_ALIGN_CENTER)
        gtk_widget_set_hexpand(gtk_widget_get_first_child(appearanceRow), 1)

        let account = UI.vbox(spacing: Style.gapSmall, classes: [Style.card], [
            UI.label(L("Server"), classes: [Style.headline]),
            UI.label(server?.baseURL ?? L("Not set up"), classes: [Style.code], selectable: true),
        ])
        let close = { gtk_window_destroy(gwindow) }
        if server != nil {
            let change = UI.button(L("_Change Server…"), classes: [Style.secondaryButton]) { close(); onChangeServer() }
            let signOut = UI.button(L("_Sign Out…"), classes: [Style.destructive]) { close(); onSignOut() }
            gtk_widget_set_name(change, "change-server")
            gtk_widget_set_name(signOut, "sign-out")
            UI.append(account, UI.hbox(spacing: Style.gapSmall, [change, signOut]))
        }
        let content = UI.vbox(spacing: Style.gapLarge, [UI.vbox(spacing: Style.gap, classes: [Style.card], [appearanceRow]), account])
        UI.margins(content, top: Style.gapLarge, bottom: Style.gapLarge, start: Style.gapLarge, end: Style.gapLarge)
        gtk_window_set_child(gwindow, content)
        Signals.onEscape(window) { close() }
    }

    func present() { gtk_window_present(gtkCast(window, to: GtkWindow.self)) }
}
