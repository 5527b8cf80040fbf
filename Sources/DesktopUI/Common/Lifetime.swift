import CGtk
import GtkKit

/// Keeps a Swift controller alive exactly as long as its root widget: retained now, released
/// when the widget is destroyed. Observers tied to the controller then stop by themselves.
@MainActor
enum Lifetime {
    static func tie(_ owner: AnyObject, to widget: Widget) {
        let retained = Unmanaged.passRetained(owner)
        Signals.connect(UnsafeMutableRawPointer(widget), "destroy") { retained.release() }
    }
}
