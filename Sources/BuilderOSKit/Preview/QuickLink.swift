/// A dev server the Preview page offers with one click: the ports the design names.
public struct QuickLink: Sendable, Hashable, Identifiable {
    public let name: String
    public let port: Int
    /// What usually runs there, as a short translated phrase.
    public let summary: String

    public var id: Int { port }

    public static var all: [QuickLink] {
        [
            QuickLink(name: "React/Next.js", port: 3000, summary: L("Development server")),
            QuickLink(name: "n8n", port: 5678, summary: L("Workflow automation")),
            QuickLink(name: "BuilderOS API", port: 8080, summary: L("System API")),
            QuickLink(name: "Vite/Vue", port: 5173, summary: L("Frontend tooling")),
            QuickLink(name: "Flask/Django", port: 5000, summary: L("Python web apps")),
        ]
    }
}

/// The custom port field's rule.
public enum PortInput {
    public enum Problem: Error, Sendable, Equatable {
        case empty, notAPort

        public var message: String {
            switch self {
            case .empty: return L("Enter a port number.")
            case .notAPort: return L("A port is a whole number from 1 to 65535.")
            }
        }
    }

    public static func parse(_ text: String) throws(Problem) -> Int {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty else { throw .empty }
        guard t.count <= 5, t.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(t), (1...65535).contains(port) else { throw .notAPort }
        return port
    }
}
