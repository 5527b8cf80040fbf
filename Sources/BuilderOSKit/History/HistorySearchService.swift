import Foundation

/// Search across the session's history, for the window: queries run off the main thread (a newer
/// one drops those it overtakes), and a history from before the search index is indexed in the
/// background once, its progress published to whatever shows it.
@MainActor
public final class HistorySearchService {
    public private(set) var indexProgress: SearchIndexProgress
    public let indexChanges = Observers<SearchIndexProgress>()
    private let searcher: HistorySearcher
    private let path: String
    /// The find bar's own connection and thread, made when first used: a find never drops a search.
    private lazy var finder: HistorySearcher? = try? HistorySearcher(path: path)

    /// Nil for a history without a file (the core's in-memory store): nothing to search beside it.
    public init?(history: any HistoryStoring) {
        guard let store = history as? HistoryStore, let searcher = try? HistorySearcher(path: store.path) else { return nil }
        self.searcher = searcher
        path = store.path
        indexProgress = store.searchIndexProgress
        if !indexProgress.isComplete {
            SearchIndexBackfill.start(path: store.path) { [weak self] progress in
                self?.indexProgress = progress
                self?.indexChanges.notify(progress)
            }
        }
    }

    /// The newest `limit` messages that match `text` (see `SearchQuery`), on the main queue; nothing
    /// for a query that can match nothing.
    public func search(_ text: String, limit: Int = 50, results: @escaping @MainActor ([SearchHit]) -> Void) {
        let query = SearchQuery(text)
        guard query.expression != nil else {
            searcher.search(query, limit: 0) { _ in results([]) }  // still drops the queries it overtakes
            return
        }
        searcher.search(query, limit: limit) { hits in results(hits) }
    }

    /// Every message of `conversation` that matches `text`, the newest first, on the main queue.
    public func find(_ text: String, in conversation: UUID, results: @escaping @MainActor ([FoundMessage]) -> Void) {
        guard let finder else { return results([]) }
        finder.find(SearchQuery(text), in: conversation) { found in results(found) }
    }
}
