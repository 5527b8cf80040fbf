import Foundation
import Hummingbird
import Logging

/// A small dev server to preview: what the README's demo starts beside the reference server, so the
/// app's Preview page shows something live. Two pages that link to each other (back and forward have
/// somewhere to go), a link to another host (which the app opens in the browser), and nothing else.
public struct DemoWebPage: Sendable {
    public static let title = "BuilderOS demo app"
    public let host: String
    public let port: Int

    public init(host: String = "127.0.0.1", port: Int) {
        (self.host, self.port) = (host, port)
    }

    /// Runs until cancelled; `onRunning` gets the page's URL once the port is bound.
    public func run(onRunning: @escaping @Sendable (String) async -> Void = { _ in }) async throws {
        let router = Router()
        router.get("/") { _, _ in
            Self.html(
                Self.page(
                    heading: "It works",
                    body: """
                        <p>This page is served by the BuilderOS reference server's demo, the way a dev server \
                        (React, Vite, Flask…) runs on your server machine.</p>
                        <p><a id="details" href="/details">Details</a> · <a id="docs" href="https://builderos.example/docs">Documentation</a></p>
                        """))
        }
        router.get("/details") { _, _ in
            Self.html(
                Self.page(
                    heading: "Details",
                    body: """
                        <p>Back and forward in the app move between this page and the first one.</p>
                        <p><a href="/">Home</a></p>
                        """, subtitle: "Details"))
        }
        var logger = Logger(label: "builderos-demo-web")
        logger.logLevel = .warning
        let host = self.host
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "builderos-demo-web"),
            onServerRunning: { channel in
                let display = host.contains(":") ? "[\(host)]" : host
                await onRunning("http://\(display):\(channel.localAddress?.port ?? 0)")
            },
            logger: logger
        )
        try await app.run()
    }

    static func page(heading: String, body: String, subtitle: String? = nil) -> String {
        let title = subtitle.map { "\($0) · \(DemoWebPage.title)" } ?? DemoWebPage.title
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(title)</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <style>
            :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
            body { margin: 0; padding: 48px; background: #f2f2f7; color: #1c1c1e; }
            @media (prefers-color-scheme: dark) { body { background: #1c1c1e; color: #f2f2f7; } }
            main { max-width: 640px; margin: auto; background: rgba(127,127,127,0.12); border-radius: 12px; padding: 24px 32px; }
            h1 { color: #007aff; margin-top: 0; }
            </style></head>
            <body><main><h1>\(heading)</h1>\(body)</main></body></html>
            """
    }

    static func html(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
