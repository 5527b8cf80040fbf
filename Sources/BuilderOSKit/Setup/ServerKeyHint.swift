/// Where the user finds the API key on the server: shown with a Copy button in the wizard and
/// quoted in the wrong-key fix-it, from this one place.
public enum ServerKeyHint {
    public static let command = "cat ~/.builderos/api_key"
}
