import CCmark
import Foundation
import Synchronization

/// Parses Markdown (CommonMark + GitHub tables, strikethrough, autolinks) with cmark-gfm into
/// `MarkdownBlock`s. Raw HTML is kept as literal text: a reply can never inject markup.
public enum MarkdownParser {
    /// cmark-gfm keeps the inline characters its extensions react to (`~`, `:` …) in one table for
    /// the whole process, adds them when a parser gets the extensions and takes them out when it
    /// finishes: two parsers on two threads take each other's out (strikethrough and autolinks then
    /// come and go). One parse at a time.
    private static let oneAtATime = Mutex(())

    /// Loads cmark-gfm on a thread of its own (rule 13 of docs/performance.md loads it at the first
    /// parse): for a window about to show replies, so its first parse finds it loaded.
    public static func loadInBackground() {
        Thread.detachNewThread { _ = bos_cmark_load() }
    }

    public static func parse(_ text: String) -> [MarkdownBlock] {
        parseLocated(text).map(\.block)
    }

    /// The top-level blocks with the line (from 1) each starts on: `StreamingMarkdown` re-parses
    /// a growing reply from its last block's line.
    public static func parseLocated(_ text: String) -> [(block: MarkdownBlock, line: Int)] {
        oneAtATime.withLock { _ in parseAlone(text) }
    }

    private static func parseAlone(_ text: String) -> [(block: MarkdownBlock, line: Int)] {
        // Without cmark-gfm (not installed), the text is shown as it came.
        guard bos_cmark_load() != 0, let parser = bos_cmark_parser_new(Int32(BOS_CMARK_OPT_DEFAULT)) else {
            return [(.paragraph([.text(text)]), 1)]
        }
        defer { bos_cmark_parser_free(parser) }
        for name in ["table", "strikethrough", "autolink"] { bos_cmark_parser_attach_extension(parser, name) }
        text.utf8CString.withUnsafeBufferPointer { buffer in
            bos_cmark_parser_feed(parser, buffer.baseAddress, buffer.count - 1)
        }
        guard let document = bos_cmark_parser_finish(parser) else { return [(.paragraph([.text(text)]), 1)] }
        defer { bos_cmark_node_free(document) }
        return children(of: document).compactMap { node in block(node).map { ($0, Int(bos_cmark_node_get_start_line(node))) } }
    }

    /// Schemes a link may have to be opened from a reply; anything else stays plain text.
    public static func isOpenable(_ url: String) -> Bool {
        let lower = url.lowercased()
        return lower.hasPrefix("https://") || lower.hasPrefix("http://") || lower.hasPrefix("mailto:")
    }

    // MARK: Walking the tree

    private static func children(of node: OpaquePointer) -> [OpaquePointer] {
        var result: [OpaquePointer] = []
        var child = bos_cmark_node_first_child(node)
        while let c = child {
            result.append(c)
            child = bos_cmark_node_next(c)
        }
        return result
    }

    private static func typeName(_ node: OpaquePointer) -> String {
        bos_cmark_node_get_type_string(node).map { String(cString: $0) } ?? ""
    }

    private static func literal(_ node: OpaquePointer) -> String {
        bos_cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
    }

    private static func blocks(childrenOf node: OpaquePointer) -> [MarkdownBlock] {
        children(of: node).compactMap(block)
    }

    private static func block(_ node: OpaquePointer) -> MarkdownBlock? {
        switch typeName(node) {
        case "paragraph":
            return .paragraph(inlines(childrenOf: node))
        case "heading":
            return .heading(level: Int(bos_cmark_node_get_heading_level(node)), inlines(childrenOf: node))
        case "code_block":
            let info = bos_cmark_node_get_fence_info(node).map { String(cString: $0) }?.trimmingCharacters(in: .whitespaces)
            var code = literal(node)
            if code.hasSuffix("\n") { code.removeLast() }
            return .code(language: info?.isEmpty == false ? info : nil, text: code)
        case "html_block":
            var html = literal(node)
            if html.hasSuffix("\n") { html.removeLast() }
            return .paragraph([.text(html)])
        case "list":
            let ordered = bos_cmark_node_get_list_type(node) == Int32(BOS_CMARK_ORDERED_LIST)
            let items = children(of: node).map { blocks(childrenOf: $0) }
            return .list(ordered: ordered, start: Int(bos_cmark_node_get_list_start(node)), items: items)
        case "block_quote":
            return .quote(blocks(childrenOf: node))
        case "thematic_break":
            return .rule
        case "table":
            var header: [[MarkdownInline]] = []
            var rows: [[[MarkdownInline]]] = []
            for row in children(of: node) {
                let cells = children(of: row).map { inlines(childrenOf: $0) }
                if typeName(row) == "table_header" { header = cells } else { rows.append(cells) }
            }
            return .table(header: header, rows: rows)
        default:
            let text = literal(node)
            return text.isEmpty ? nil : .paragraph([.text(text)])
        }
    }

    private static func inlines(childrenOf node: OpaquePointer) -> [MarkdownInline] {
        children(of: node).compactMap(inline)
    }

    private static func inline(_ node: OpaquePointer) -> MarkdownInline? {
        switch typeName(node) {
        case "text", "html_inline": return .text(literal(node))
        case "code": return .code(literal(node))
        case "emph": return .emphasis(inlines(childrenOf: node))
        case "strong": return .strong(inlines(childrenOf: node))
        case "strikethrough": return .strikethrough(inlines(childrenOf: node))
        case "softbreak": return .text(" ")
        case "linebreak": return .lineBreak
        case "link":
            let url = bos_cmark_node_get_url(node).map { String(cString: $0) } ?? ""
            let content = inlines(childrenOf: node)
            return isOpenable(url) ? .link(url: url, content) : .emphasis(content)
        case "image":
            let url = bos_cmark_node_get_url(node).map { String(cString: $0) } ?? ""
            let alt = inlines(childrenOf: node)
            return isOpenable(url) ? .link(url: url, alt.isEmpty ? [.text(url)] : alt) : .text(alt.map(\.plainText).joined())
        default:
            let text = literal(node)
            return text.isEmpty ? nil : .text(text)
        }
    }
}
