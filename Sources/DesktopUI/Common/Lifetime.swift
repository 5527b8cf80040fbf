import CGtk
import GtkKit

/// Keeps a Swift controller alive exactly as long as its root widget: retained now, released
/// when the widget is destroyed. Observers tied to the controller then stop by themselves — unless
/// something else keeps the controller: such a controller observes as `token(of:)` instead.
@MainActor
enum Lifetime {
    static func tie(_ owner: AnyObject, to widget: Widget) {
        let retained = Unmanaged.passRetained(owner)
        Signals.connect(UnsafeMutableRawPointer(widget), "destroy") { retained.release() }
    }

    /// An object that lives exactly as long as `widget`, to own the observers that touch it: they stop when the
    /// widget goes, however long the Swift object that registered them lives on. Keep no reference to it.
    static func token(of widget: Widget) -> AnyObject {
        let token = Token()
        tie(token, to: widget)
        return token
    }

    private final class Token {}
}
