import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// The rows of the Preferences window: a title with a hint, and a control on the right.
@MainActor
enum PreferenceRows {
    static func row(_ title: String, hint: String?, control: Widget) -> Widget {
        var texts = [UI.label(title, classes: [Style.headline])]
        if let hint { texts.append(UI.label(hint, classes: [Style.label, Style.dim])) }
        let textColumn = UI.vbox(spacing: Style.gapHairline, texts)
        gtk_widget_set_hexpand(textColumn, 1)
        UI.align(control, v: GTK_ALIGN_CENTER)
        return UI.hbox(spacing: Style.gap, [textColumn, control])
    }

    static func dropDown(
        _ items: [String], selected: Int, name: String, label: String,
        onSelect: @escaping @MainActor (Int) -> Void
    ) -> Widget {
        var names = items.map { strdup($0) } + [nil]
        defer { names.forEach { free($0) } }
        let dropDown = names.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                gtk_drop_down_new_from_strings($0)!
            }
        }
        gtk_widget_set_name(dropDown, name)
        Accessibility.setLabel(dropDown, label)
        gtk_drop_down_set_selected(OpaquePointer(dropDown), UInt32(max(selected, 0)))
        Signals.connect(
            UnsafeMutableRawPointer(dropDown), "notify::selected",
            withArgument: { _ in
                onSelect(Int(gtk_drop_down_get_selected(OpaquePointer(dropDown))))
            })
        return dropDown
    }

    static func toggle(_ on: Bool, name: String, label: String, onChange: @escaping @MainActor (Bool) -> Void) -> Widget {
        let toggle = gtk_switch_new()!
        gtk_switch_set_active(OpaquePointer(toggle), on ? 1 : 0)
        gtk_widget_set_name(toggle, name)
        Accessibility.setLabel(toggle, label)
        Signals.connect(
            UnsafeMutableRawPointer(toggle), "notify::active",
            withArgument: { _ in
                onChange(gtk_switch_get_active(OpaquePointer(toggle)) != 0)
            })
        return toggle
    }

    static func refreshTitle(_ seconds: Int) -> String {
        switch seconds {
        case 0: return L("Off")
        case ..<60: return L("Every second", "Every %d seconds", counting: seconds)
        default: return L("Every minute", "Every %d minutes", counting: seconds / 60)
        }
    }

    /// The Wake-on-LAN card: MAC and broadcast entries, checked as typed, saved when valid.
    static func wakeOnLAN(settingsStore: SettingsStore, server: ServerAddress) -> Widget {
        let settings = settingsStore.load().server(at: server)
        let problem = UI.label("", classes: [Style.label, Style.errorText])
        gtk_widget_set_name(problem, "wol-problem")
        UI.setVisible(problem, false)
        let macRef = WidgetRef(), broadcastRef = WidgetRef()
        let check: @MainActor () -> Void = {
            guard let macEntry = macRef.widget, let broadcastEntry = broadcastRef.widget else { return }
            let mac = UI.text(of: macEntry).trimmingCharacters(in: .whitespaces)
            let broadcast = UI.text(of: broadcastEntry).trimmingCharacters(in: .whitespaces)
            var message: String?
            if !mac.isEmpty || !broadcast.isEmpty {
                do throws(WakeOnLANProblem) { _ = try WakeOnLAN(mac: mac, broadcast: broadcast) } catch { message = error.message }
            }
            UI.setText(problem, message ?? "")
            UI.setVisible(problem, message != nil)
            UI.setClass(macEntry, "error", message != nil && WakeOnLAN.parseMAC(mac) == nil)
            UI.setClass(broadcastEntry, "error", message != nil && WakeOnLAN.parseMAC(mac) != nil)
            guard message == nil else { return }
            try? settingsStore.updateServer(at: server) {
                $0.wakeMAC = mac.isEmpty ? nil : mac
                $0.wakeBroadcast = broadcast.isEmpty ? nil : broadcast
            }
        }
        let mac = UI.entry(placeholder: "3c:22:fb:12:34:56", classes: [Style.entry], onChange: { _ in check() })
        let broadcast = UI.entry(placeholder: L("255.255.255.255 (this network)"), classes: [Style.entry], onChange: { _ in check() })
        gtk_widget_set_name(mac, "wol-mac")
        gtk_widget_set_name(broadcast, "wol-broadcast")
        Accessibility.setLabel(mac, L("Server MAC address"))
        Accessibility.setLabel(broadcast, L("Broadcast address"))
        UI.setText(ofEditable: mac, settings?.wakeMAC ?? "")
        UI.setText(ofEditable: broadcast, settings?.wakeBroadcast ?? "")
        macRef.widget = mac
        broadcastRef.widget = broadcast
        return UI.vbox(
            spacing: Style.gapSmall, classes: [Style.card],
            [
                UI.label(L("Wake-on-LAN"), classes: [Style.headline]),
                UI.label(
                    L("To wake the server machine from this computer, enter its network card's MAC address (on the server: “ip link”)."),
                    classes: [Style.label, Style.dim]),
                InfoGrid.make([(L("MAC address"), mac), (L("Broadcast address"), broadcast)]),
                problem,
            ])
    }
}
