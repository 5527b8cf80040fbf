/// A weak reference for closures made before `self` exists (buttons built in an initialiser).
@MainActor
final class WeakBox<T: AnyObject> {
    weak var value: T?
}
