import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// Real servers answer a WebSocket handshake for a path they do not serve like any unknown path:
/// 404. Hummingbird answers every refused upgrade with 400, so clients could not tell "no such
/// socket" (a server without the terminal) from a malformed handshake. This child channel is
/// Hummingbird's own WebSocket channel with one handler added right after the HTTP decoder: a
/// handshake for a path no socket serves loses its `Upgrade` header and goes through ordinary
/// routing, which answers 404.
struct UnservedUpgradeGate: ServerChildChannel {
    let inner: HTTP1WebSocketUpgradeChannel
    let servedPaths: Set<String>

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        let paths = servedPaths
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try operations.addHandler(UnservedUpgradeHandler(servedPaths: paths), position: .after(decoder))
            return value
        }
    }

    func handle(value: HTTP1WebSocketUpgradeChannel.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }

    static func builder(webSocketRouter: Router<BasicWebSocketRequestContext>, servedPaths: Set<String>, configuration: WebSocketServerConfiguration)
        -> HTTPServerBuilder
    {
        let webSocketResponder = webSocketRouter.buildResponder()
        return HTTPServerBuilder { responder in
            UnservedUpgradeGate(
                inner: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder, configuration: .init(ws: configuration)),
                servedPaths: servedPaths
            )
        }
    }
}

/// Turns a handshake for an unserved path into a plain request (see `UnservedUpgradeGate`).
final class UnservedUpgradeHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    let servedPaths: Set<String>
    init(servedPaths: Set<String>) { self.servedPaths = servedPaths }

    /// Only a connection's first request can be a handshake; after it this handler leaves the pipeline
    /// (an upgraded connection carries WebSocket frames, not HTTP parts).
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        defer { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
        guard head.headers.contains(name: "upgrade") else {
            context.fireChannelRead(data)
            return
        }
        let path = String(head.uri.prefix { $0 != "?" })
        if !servedPaths.contains(path) {
            head.headers.remove(name: "upgrade")
            let connection = head.headers["connection"].flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { $0.lowercased() != "upgrade" }
            head.headers.remove(name: "connection")
            if !connection.isEmpty { head.headers.add(name: "connection", value: connection.joined(separator: ", ")) }
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}
