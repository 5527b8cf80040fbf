import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// F1: the keyboard shortcuts, in GTK's own shortcuts window (built from a translated template).
@MainActor
enum ShortcutsWindow {
    static var shortcuts: [(accelerator: String, title: String)] {
        PageKind.allCases.map { ($0.accelerator, $0.title) } + [
            ("<Control><Shift>s", L("Switch server")), ("<Control>k", L("Quick actions")), ("<Control><Shift>f", L("Search all chats")),
            ("<Control>f", L("Find in the conversation")), ("F3 <Shift>F3", L("Next (older) and previous find match")),
            ("Return", L("Send the message")),
            ("<Shift>Return", L("New line in the message")),
            ("F5", L("Refresh the page")), ("<Control><Shift>n", L("Open the page in a new window")),
            ("<Shift>F10", L("Message menu (copy)")),
            ("<Control>comma", L("Preferences")), ("F1", L("Keyboard shortcuts")), ("<Control>q", L("Quit")),
            ("Escape", L("Leave the setup (asks first)")),
        ]
    }

    static func present(parent: Widget?) {
        // Built line by line (no multi-line literals, which xgettext's parser cannot read).
        var xml = [
            "<interface>", "<object class='GtkShortcutsWindow' id='window'>", "<property name='modal'>1</property>",
            "<child><object class='GtkShortcutsSection'>", "<property name='section-name'>main</property>",
            "<child><object class='GtkShortcutsGroup'>", "<property name='title'>\(escape(L("BuilderOS")))</property>",
        ]
        for shortcut in shortcuts {
            xml += [
                "<child><object class='GtkShortcutsShortcut'>",
                "<property name='accelerator'>\(escape(shortcut.accelerator))</property>",
                "<property name='title'>\(escape(shortcut.title))</property>", "</object></child>",
            ]
        }
        xml += ["</object></child>", "</object></child>", "</object>", "</interface>"]
        let builder = gtk_builder_new_from_string(xml.joined(separator: "\n"), -1)!
        defer { g_object_unref(UnsafeMutableRawPointer(builder)) }
        guard let object = gtk_builder_get_object(builder, "window") else { return }
        let window = UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWindow.self)
        if let parent { gtk_window_set_transient_for(window, gtkCast(parent, to: GtkWindow.self)) }
        gtk_widget_set_name(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWidget.self), "shortcuts-window")
        gtk_window_present(window)
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "'", with: "&apos;")
    }
}
