/// The upload `type` of a file, from its name (wire contract: photo, video, document, code, pdf,
/// archive, audio, other).
public enum AttachmentKind {
    public static func classify(filename: String) -> String {
        let ext = filename.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "png", "jpg", "jpeg", "gif", "webp", "heic", "bmp", "svg", "tiff": return "photo"
        case "mp4", "mov", "mkv", "webm", "avi": return "video"
        case "mp3", "wav", "ogg", "flac", "m4a", "opus": return "audio"
        case "pdf": return "pdf"
        case "zip", "tar", "gz", "tgz", "xz", "bz2", "7z", "zst": return "archive"
        case "swift", "py", "js", "ts", "rs", "go", "c", "h", "cpp", "java", "kt", "rb", "sh", "json", "yaml", "yml", "toml", "html", "css", "sql":
            return "code"
        case "txt", "md", "doc", "docx", "odt", "rtf", "csv", "xlsx", "ods", "pptx", "odp": return "document"
        default: return "other"
        }
    }
}
