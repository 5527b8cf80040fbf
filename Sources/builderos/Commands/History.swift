import ArgumentParser
import BuilderOSKit
import Foundation

/// `builderos history …`: the chat history on this computer, each server's its own. No key is needed.
struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "Search, list, export and import the chat history kept on this computer.",
        subcommands: [HistoryListCommand.self, HistorySearchCommand.self, HistoryExportCommand.self, HistoryImportCommand.self])

    /// The chosen server's history file — before any server is set up, the one the first will have — with its
    /// search index complete (a history from before the index is indexed here once, with progress on standard error).
    static func open(_ choice: ServerChoice, indexed: Bool = false) throws -> HistoryStore {
        let file = try choice.profileIfAny(in: SettingsStore.forOneRead().load())?.historyFile ?? HistoryStore.firstFileName
        let store: HistoryStore
        do { store = try HistoryStore(path: HistoryStore.path(forFile: file)) } catch { throw CLIFailure(error: error) }
        if indexed && !store.searchIndexProgress.isComplete {
            let showProgress = isatty(STDERR_FILENO) == 1
            do {
                try SearchIndexBackfill.run(path: store.path) { progress in
                    if showProgress {
                        Terminal.message("\r" + L("Indexing your history for search… %d%%", String(Int(progress.fraction * 100))))
                    }
                }
            } catch { throw CLIFailure(error: error) }
            if showProgress { Terminal.message("\r\u{1B}[K") }
        }
        return store
    }

    static let time: DateFormatter = {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd HH:mm"
        return f
    }()

    static func iso(_ date: Date) -> String { date.formatted(.iso8601) }
}

struct HistoryListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the conversations, newest first.")

    @OptionGroup var target: ServerChoice

    @Flag(help: "Print JSON instead of text.") var json = false
    @OptionGroup var output: OutputOptions

    func run() throws {
        output.apply()
        let store = try History.open(target)
        let conversations = store.conversations()
        if json {
            let items: [[String: Any]] = conversations.map { c in
                [
                    "id": c.id.uuidString.lowercased(), "title": c.title, "agent": c.agent.rawValue, "created": History.iso(c.created),
                    "updated": History.iso(c.updated), "messages": store.messageCount(in: c.id),
                ]
            }
            Terminal.json(try JSONSerialization.data(withJSONObject: ["conversations": items], options: [.sortedKeys, .prettyPrinted]))
        } else if conversations.isEmpty {
            Terminal.line(L("There are no conversations on this computer yet."))
        } else {
            for c in conversations {
                let messages = store.messageCount(in: c.id)
                let count = L("%d message", "%d messages", counting: messages)
                Terminal.line(
                    "\(c.id.uuidString.prefix(8).lowercased())  \(History.time.string(from: c.updated))  \(c.agent.displayName)  \(count)  \(c.title)"
                )
            }
        }
    }
}

struct HistorySearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Find messages in every conversation.",
        // One-line literals: xgettext reads this file (multi-line ones confuse it).
        discussion: "Words match as prefixes and all must be found; accents are ignored (resume finds résumé). "
            + "\"two words\" finds that phrase; -word leaves out messages that have it.")

    @OptionGroup var target: ServerChoice

    // `-word` is an exclusion, not an option.
    @Argument(parsing: .allUnrecognized, help: "What to find.") var query: [String]
    @Flag(help: "Print JSON instead of text.") var json = false
    @Option(help: "At most this many messages (1–1000).") var limit = 20
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard (1...1000).contains(limit) else { throw ValidationError(L("--limit must be between 1 and 1000.")) }
        guard SearchQuery(query.joined(separator: " ")).expression != nil else {
            throw ValidationError(L("Give at least one word to find (words with “-” only leave messages out)."))
        }
    }

    func run() throws {
        output.apply()
        let store = try History.open(target, indexed: true)
        let hits = store.search(SearchQuery(query.joined(separator: " ")), limit: limit)
        if json {
            let items: [[String: Any]] = hits.map { hit in
                [
                    "conversation_id": hit.conversation.uuidString.lowercased(), "conversation_title": hit.conversationTitle,
                    "agent": hit.agent.rawValue, "message_id": hit.message.uuidString.lowercased(), "role": hit.role.rawValue,
                    "created": History.iso(hit.created), "snippet": hit.snippet.map(\.text).joined(),
                    "matched": hit.snippet.filter(\.matched).map(\.text),
                ]
            }
            Terminal.json(try JSONSerialization.data(withJSONObject: ["results": items], options: [.sortedKeys, .prettyPrinted]))
            return
        }
        guard !hits.isEmpty else {
            Terminal.line(L("No messages found."))
            return
        }
        for group in hits.grouped() {
            Terminal.line([(group.title, true), ("  (\(group.agent.displayName), \(group.conversation.uuidString.prefix(8).lowercased()))", false)])
            for hit in group.hits {
                let who = hit.role == .user ? L("You") : hit.agent.displayName
                Terminal.line([("  \(History.time.string(from: hit.created))  \(who): ", false)] + hit.snippet.map { ($0.text, $0.matched) })
            }
        }
    }
}

struct HistoryExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Export conversations as Markdown (to read) or JSON (to import elsewhere).",
        discussion: "Without --output the export goes to standard output. Markdown of several conversations "
            + "given a folder as --output writes one file per conversation.")

    @OptionGroup var target: ServerChoice

    @Option(help: "One conversation: its id, or the start of it as `history list` shows.") var conversation: String?
    @Option(help: "markdown or json.") var format: HistoryExportFormat = .json
    @Option(help: "A file to write (a folder for Markdown of several conversations).") var output: String?
    @OptionGroup var outputOptions: OutputOptions

    func run() throws {
        outputOptions.apply()
        let store = try History.open(target)
        let conversations = store.conversations()
        var chosen = conversations
        if let wanted = conversation?.lowercased() {
            let matching = conversations.filter { $0.id.uuidString.lowercased().hasPrefix(wanted) }
            guard wanted.count >= 4, matching.count == 1 else {
                throw ValidationError(
                    matching.count > 1
                        ? L("More than one conversation starts with “%@”: give more of its id.", wanted)
                        : L("No conversation has the id “%@” (see builderos history list).", wanted))
            }
            chosen = matching
        }
        let server = (try? target.profileIfAny(in: SettingsStore.forOneRead().load()))??.server?.displayURL
        if let output {
            // Markdown of one conversation to an existing folder goes into it, named as for several.
            let target =
                format == .markdown && chosen.count == 1 && isFolder(output)
                ? (output as NSString).appendingPathComponent(HistoryMarkdown.fileName(for: chosen[0])) : output
            do { try store.export(chosen, as: format, to: target, server: server) } catch { throw CLIFailure(error: error) }
        } else if format == .json {
            Terminal.out(String(decoding: store.exportDocument(of: chosen.map(\.id), server: server).encoded(), as: UTF8.self))
        } else {
            Terminal.out(chosen.map { HistoryMarkdown.render($0, messages: store.allMessages(in: $0.id)) }.joined(separator: "\n\n"))
        }
        if let output {
            Terminal.error(
                L("Exported %d conversation to %@.", "Exported %d conversations to %@.", counting: chosen.count, output))
        }
    }

    private func isFolder(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
    }

}

extension HistoryExportFormat: ExpressibleByArgument {}

struct HistoryImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import a JSON export. Messages already here are skipped, so importing twice is safe.")

    @OptionGroup var target: ServerChoice

    @Argument(help: "The JSON file made by `builderos history export` or the app's Export.") var file: String

    func run() throws {
        let store = try History.open(target)
        do {
            let summary = try store.importHistory(HistoryImport.read(fileAt: file))
            Terminal.line(summary.lines.joined(separator: "\n"))
        } catch { throw CLIFailure(error: error) }
    }
}
