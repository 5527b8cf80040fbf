import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// Files chosen or dropped for the next message: shown as chips with a remove button, uploaded
/// with a progress bar when the message is sent, kept (with the text) when an upload fails.
@MainActor
final class AttachmentTray {
    let widget: Widget
    private let chips: Widget
    private let progress: Widget
    private let problem = UI.label("", classes: [Style.label, Style.errorText])
    private(set) var files: [String] = []
    private(set) var uploading = false
    var onChange: (() -> Void)?

    init() {
        chips = UI.hbox(spacing: Style.gapSmall)
        progress = gtk_progress_bar_new()
        gtk_widget_set_name(progress, "upload-progress")
        gtk_progress_bar_set_show_text(OpaquePointer(progress), 1)
        gtk_widget_set_name(problem, "attachment-problem")
        widget = UI.vbox(spacing: Style.gapTiny, [chips, progress, problem])
        UI.margins(widget, start: Style.gap + Layout.px("attachment-indent"), end: Style.gap)
        refresh()
        Lifetime.tie(self, to: widget)
    }

    /// Adds files after checking they can be read and are within the 50 MB limit.
    func add(_ paths: [String]) {
        for path in paths where !files.contains(path) {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
            guard let size, FileManager.default.isReadableFile(atPath: path) else {
                show(problem: BuilderOSError.fileUnreadable(path: path).userMessage)
                continue
            }
            guard size <= UploadLimit.maximumBytes else {
                show(
                    problem: [BuilderOSError.fileTooLarge(bytes: size).userMessage, BuilderOSError.fileTooLarge(bytes: size).fixIt]
                        .compactMap { $0 }.joined(separator: " "))
                continue
            }
            files.append(path)
            show(problem: nil)
        }
        refresh()
    }

    func clear() {
        files = []
        show(problem: nil)
        refresh()
    }

    /// Uploads every file in order, with progress; throws the first failure (files stay).
    func uploadAll(with rest: any BuilderOSAPI) async throws(BuilderOSError) -> [ChatAttachment] {
        uploading = true
        show(problem: nil)
        refresh()
        defer { uploading = false; refresh() }
        var result: [ChatAttachment] = []
        for (index, path) in files.enumerated() {
            let name = (path as NSString).lastPathComponent
            let kind = AttachmentKind.classify(filename: name)
            let mime = Self.mimeType(of: path)
            gtk_progress_bar_set_text(OpaquePointer(progress), L("Uploading %@ (%d of %d)…", name, String(index + 1), String(files.count)))
            gtk_progress_bar_set_fraction(OpaquePointer(progress), 0)
            do throws(BuilderOSError) {
                let reply = try await rest.upload(fileAt: path, kind: kind, mimeType: mime) { [weak self] sent, total in
                    guard total > 0 else { return }
                    let fraction = Double(sent) / Double(total)
                    Task { @MainActor in self.map { gtk_progress_bar_set_fraction(OpaquePointer($0.progress), fraction) } }
                }
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? reply.size ?? 0
                result.append(
                    ChatAttachment(
                        id: UUID().uuidString.lowercased(), filename: reply.filename ?? name, mimeType: mime,
                        size: size, type: kind, url: reply.resolvedURL(base: rest.server)))
            } catch let e {
                show(
                    problem: String(
                        format: L("“%@” could not be uploaded: %@ Your message was not sent; it is still in the field."),
                        name, e.sentenceWithFix))
                throw e
            }
        }
        return result
    }

    private func show(problem text: String?) {
        UI.setText(problem, text ?? "")
        UI.setVisible(problem, text != nil)
    }

    private func refresh() {
        while let child = gtk_widget_get_first_child(chips) { gtk_box_remove(gtkCast(chips, to: GtkBox.self), child) }
        for path in files {
            let icon = gtk_image_new_from_icon_name("mail-attachment-symbolic")!
            let name = UI.label((path as NSString).lastPathComponent, classes: [Style.label], wrap: false)
            let remove = PageLayout.iconButton("window-close-symbolic", label: L("Remove %@", (path as NSString).lastPathComponent)) {
                [unowned self] in
                files.removeAll { $0 == path }
                refresh()
                onChange?()
            }
            UI.setSensitive(remove, !uploading)
            UI.append(chips, UI.hbox(spacing: Style.gapTiny, classes: [Style.statusPill], [icon, name, remove]))
        }
        UI.setVisible(chips, !files.isEmpty)
        UI.setVisible(progress, uploading)
        UI.setVisible(widget, !files.isEmpty || gtk_widget_get_visible(problem) != 0)
        onChange?()
    }

    static func mimeType(of path: String) -> String {
        var uncertain: gboolean = 0
        guard let type = g_content_type_guess(path, nil, 0, &uncertain) else { return "application/octet-stream" }
        defer { g_free(type) }
        guard let mime = g_content_type_get_mime_type(type) else { return "application/octet-stream" }
        defer { g_free(mime) }
        return String(cString: mime)
    }
}
