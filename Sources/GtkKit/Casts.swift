import CGtk

/// GTK's C "inheritance": a GtkWindow* is a GtkWidget* is a GObject*. Swift sees unrelated
/// pointer types, so the layer converts explicitly, in one place.
public func gtkCast<T>(_ pointer: UnsafeMutablePointer<GtkWidget>, to _: T.Type) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: T.self)
}
