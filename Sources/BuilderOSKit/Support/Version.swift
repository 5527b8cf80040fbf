/// The client library's identity.
public enum BuilderOSKit {
    public static let version = "0.4.0"
    public static let applicationID = "app.builderos.Desktop"
}
