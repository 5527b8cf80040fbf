/// A weak reference: for closures made before `self` exists (buttons built in an initialiser), and lists that must not
/// keep what they list alive.
@MainActor
final class WeakBox<T: AnyObject> {
    weak var value: T?
}
