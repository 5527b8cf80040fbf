import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// Export and import from the window: the file chooser, the chat service's export or import, and a
/// dialog that says what was done or why not. Nothing is written or read until the user chose where.
@MainActor
struct HistoryTransfer {
    let chat: ChatService
    let server: ServerAddress
    let window: @MainActor () -> Widget?

    /// One conversation (`ids` of one) or all (nil).
    func export(_ ids: [UUID]?, as format: HistoryExportFormat) {
        guard let parent = window() else { return }
        let chosen = chat.conversations.filter { ids?.contains($0.id) ?? true }
        guard !chosen.isEmpty else {
            return NoticeDialog.show(parent: parent, title: L("Nothing to export"), body: L("There are no conversations yet."))
        }
        let purpose: FileChooser.Purpose
        switch (format, chosen.count) {
        case (.markdown, 1): purpose = .save(suggestedName: HistoryMarkdown.fileName(for: chosen[0]))
        case (.markdown, _): purpose = .folder
        case (.json, 1): purpose = .save(suggestedName: HistoryMarkdown.fileName(for: chosen[0]).replacingOccurrences(of: ".md", with: ".json"))
        case (.json, _):
            purpose = .save(suggestedName: L("BuilderOS history") + " \(LocalTime.shortDate(Date()).replacingOccurrences(of: "/", with: "-")).json")
        }
        let title = chosen.count == 1 ? L("Export Conversation") : L("Export All Conversations")
        FileChooser.choose(purpose, title: title, accept: L("_Export"), parent: parent) { path in
            do throws(BuilderOSError) {
                try chat.export(chosen.map(\.id), as: format, to: path, server: server.displayURL)
                let done = String(
                    format: L("Exported %d conversation to %@.", "Exported %d conversations to %@.", count: chosen.count), chosen.count, path)
                NoticeDialog.show(parent: parent, title: L("Exported"), body: done, name: "export-done")
            } catch {
                NoticeDialog.show(parent: parent, title: L("Could not export"), failure: error, name: "export-failed")
            }
        }
    }

    func importHistory() {
        guard let parent = window() else { return }
        FileChooser.choose(.open, title: L("Import History"), accept: L("_Import"), parent: parent) { path in
            do throws(BuilderOSError) {
                let summary = try chat.importHistory(from: path)
                let body = summary.lines.joined(separator: "\n")
                NoticeDialog.show(parent: parent, title: L("Imported"), body: body, name: "import-done")
            } catch {
                NoticeDialog.show(parent: parent, title: L("Could not import"), failure: error, name: "import-failed")
            }
        }
    }
}
