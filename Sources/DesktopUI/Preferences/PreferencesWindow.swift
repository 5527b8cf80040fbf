import BuilderOSKit
import CGtk
import GtkKit

/// Ctrl+,: appearance, behaviour (auto-refresh, notifications, background), Wake-on-LAN, and the
/// server (its address, the authority trusted for it, Change Address…, Forget Server…). Every change
/// is saved at once.
@MainActor
final class PreferencesWindow {
    let window: Widget

    /// - Parameter backgroundModeAvailable: a tray host is running, so a hidden window can be brought back.
    init(
        parent: Widget?, appearance: AppearanceController, server: ServerAddress?, backgroundModeAvailable: Bool, settingsStore: SettingsStore,
        onAppearance: @escaping @MainActor (Appearance) -> Void,
        onChangeServer: @escaping @MainActor () -> Void, onSignOut: @escaping @MainActor () -> Void
    ) {
        window = gtk_window_new()!
        let gwindow = gtkCast(window, to: GtkWindow.self)
        gtk_window_set_title(gwindow, L("Preferences"))
        gtk_window_set_default_size(gwindow, Layout.px("preferences-width"), Layout.px("preferences-height"))
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
        Signals.connect(
            UnsafeMutableRawPointer(dropDown), "notify::selected",
            withArgument: { [weak appearance] _ in
                let index = Int(gtk_drop_down_get_selected(OpaquePointer(dropDown)))
                // The drop-down following a change made elsewhere (below) changes nothing itself.
                guard Appearance.allCases.indices.contains(index), Appearance.allCases[index] != appearance?.preference else { return }
                onAppearance(Appearance.allCases[index])
            })
        // A change made elsewhere (`gsettings set`) shows here too.
        let follower = AppearanceFollower(dropDown: dropDown)
        Lifetime.tie(follower, to: dropDown)
        appearance.observe { [weak follower, weak appearance] _ in
            guard let follower, let preference = appearance?.preference else { return }
            let index = UInt32(Appearance.allCases.firstIndex(of: preference) ?? 0)
            if gtk_drop_down_get_selected(OpaquePointer(follower.dropDown)) != index {
                gtk_drop_down_set_selected(OpaquePointer(follower.dropDown), index)
            }
        }
        let appearanceHint = UI.label(
            appearance.followsPortal
                ? L("Automatic follows your desktop's dark style setting.")
                : L("Automatic follows your GTK theme's dark style setting."),
            classes: [Style.label, Style.dim])
        let appearanceRow = UI.hbox(
            spacing: Style.gap,
            [
                UI.vbox(spacing: Style.gapHairline, [UI.label(L("Appearance"), classes: [Style.headline]), appearanceHint]), dropDown,
            ])
        UI.align(dropDown, v: GTK_ALIGN_CENTER)
        gtk_widget_set_hexpand(gtk_widget_get_first_child(appearanceRow), 1)

        let account = UI.vbox(
            spacing: Style.gapSmall, classes: [Style.card],
            [
                UI.label(L("Server"), classes: [Style.headline]),
                UI.label(server?.displayURL ?? L("Not set up"), classes: [Style.code], selectable: true),
            ])
        // An authority trusted for this server beside the system's (set up in the wizard or with
        // `builderos login --ca-file`): trusting another one goes through Change Address…, which tests it.
        if let server, let authority = settingsStore.load().server(at: server)?.caFile {
            let trusted = UI.label(
                L("Trusting the authorities in %@ for this server.", authority), classes: [Style.label, Style.dim])
            gtk_widget_set_name(trusted, "trusted-authority")
            UI.append(account, trusted)
        }
        let close = { gtk_window_destroy(gwindow) }
        if server != nil {
            let change = UI.button(L("_Change Address…"), classes: [Style.secondaryButton]) {
                close(); onChangeServer()
            }
            let signOut = UI.button(L("_Forget Server…"), classes: [Style.destructive]) {
                close(); onSignOut()
            }
            gtk_widget_set_name(change, "change-server")
            gtk_widget_set_name(signOut, "sign-out")
            UI.append(account, UI.hbox(spacing: Style.gapSmall, [change, signOut]))
        }
        let settings = settingsStore.load()
        let save: @MainActor ((inout AppSettings) -> Void) -> Void = { change in
            var s = settingsStore.load()
            change(&s)
            try? settingsStore.save(s)
        }
        let choices = AppSettings.refreshChoices
        let refresh = PreferenceRows.dropDown(
            choices.map(PreferenceRows.refreshTitle), selected: choices.firstIndex(of: settings.autoRefreshSeconds) ?? 2,
            name: "auto-refresh", label: L("Dashboard auto-refresh")
        ) { index in
            guard choices.indices.contains(index) else { return }
            save { $0.autoRefreshSeconds = choices[index] }
        }
        let replies = PreferenceRows.toggle(settings.notifications.replies, name: "notify-replies", label: L("Notify about replies")) { on in
            save { $0.notifications.replies = on }
        }
        let connection = PreferenceRows.toggle(settings.notifications.connection, name: "notify-connection", label: L("Notify about the connection"))
        { on in
            save { $0.notifications.connection = on }
        }
        let sleepResult = PreferenceRows.toggle(settings.notifications.sleep, name: "notify-sleep", label: L("Notify about sleep")) { on in
            save { $0.notifications.sleep = on }
        }
        let background = PreferenceRows.toggle(settings.keepRunningInBackground, name: "background", label: L("Keep running in the background")) {
            on in
            save { $0.keepRunningInBackground = on }
        }
        gtk_widget_set_sensitive(background, backgroundModeAvailable ? 1 : 0)
        let backgroundHint =
            backgroundModeAvailable
            ? L("Closing the window keeps BuilderOS connected in the system tray; click its icon to open the window again.")
            : L(
                "Unavailable: no system tray is running in this session, so nothing could bring a hidden window back. Closing the window quits BuilderOS. (On GNOME, the AppIndicator extension provides a tray.)"
            )
        let behaviour = UI.vbox(
            spacing: Style.gap, classes: [Style.card],
            [
                PreferenceRows.row(L("Dashboard auto-refresh"), hint: L("How often the Dashboard reloads status and capsules."), control: refresh),
                PreferenceRows.row(L("Keep running in the background"), hint: backgroundHint, control: background),
            ])
        let notificationsCard = UI.vbox(
            spacing: Style.gap, classes: [Style.card],
            [
                UI.label(L("Notifications"), classes: [Style.headline]),
                PreferenceRows.row(L("Replies"), hint: L("When a reply arrives while the window is in the background."), control: replies),
                PreferenceRows.row(
                    L("Connection"), hint: L("When the connection is lost or back, once that has held for 10 seconds."), control: connection),
                PreferenceRows.row(L("Sleep"), hint: L("The server's answer to Sleep, when the window is in the background."), control: sleepResult),
            ])
        let content = UI.vbox(
            spacing: Style.gapLarge,
            [
                UI.vbox(spacing: Style.gap, classes: [Style.card], [appearanceRow]), behaviour, notificationsCard,
            ]
                // The server's own settings, for the server the window shows.
                + (server.map {
                    [
                        PreferenceRows.wakeOnLAN(settingsStore: settingsStore, server: $0),
                        PreviewHostRow.card(settingsStore: settingsStore, server: $0),
                        TerminalCommandsRow.card(settingsStore: settingsStore, server: $0),
                    ]
                } ?? []) + [account])
        UI.margins(content, top: Style.gapLarge, bottom: Style.gapLarge, start: Style.gapLarge, end: Style.gapLarge)
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(OpaquePointer(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(OpaquePointer(scroller), content)
        gtk_window_set_child(gwindow, scroller)
        Signals.onEscape(window) { close() }
    }

    func present() { gtk_window_present(gtkCast(window, to: GtkWindow.self)) }
}

/// The appearance drop-down, for as long as it exists: `AppearanceController` keeps its observers.
@MainActor
private final class AppearanceFollower {
    let dropDown: Widget
    init(dropDown: Widget) { self.dropDown = dropDown }
}
