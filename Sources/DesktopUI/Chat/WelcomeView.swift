import BuilderOSKit
import CGtk
import GtkKit

/// The empty state of a conversation: the logo, "Welcome to BuilderOS" and the design's subtitle.
@MainActor
enum WelcomeView {
    static func make() -> Widget {
        let logo = LogoTile.make(size: Layout.px("logo-empty-chat"))
        let title = UI.label(L("Welcome to BuilderOS"), classes: [Style.display], wrap: true, xalign: 0.5)
        let subtitle = UI.label(
            L("Your companion for managing capsules, coordinating agents, and monitoring the Builder System from your desktop."),
            classes: [Style.body, Style.dim], wrap: true, xalign: 0.5)
        gtk_label_set_justify(OpaquePointer(subtitle), GTK_JUSTIFY_CENTER)
        gtk_label_set_max_width_chars(OpaquePointer(subtitle), Layout.chars("welcome-subtitle"))
        let box = UI.vbox(spacing: Style.gap, [logo, title, subtitle])
        UI.align(box, h: GTK_ALIGN_CENTER, v: GTK_ALIGN_CENTER)
        gtk_widget_set_vexpand(box, 1)
        gtk_widget_set_name(box, "welcome")
        return box
    }
}
