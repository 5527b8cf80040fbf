/// The client library's identity.
public enum BuilderOSKit {
    /// debian/changelog's newest entry, where a release is written (DataFilesTests checks that they agree).
    public static let version = "0.5.0"
    public static let applicationID = "app.builderos.Desktop"
}
