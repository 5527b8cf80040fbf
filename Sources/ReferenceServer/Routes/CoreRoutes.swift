import Foundation
import Hummingbird

/// The core server's open routes: health and status (no key checked, as on real servers).
enum CoreRoutes {
    static func add<Context: RequestContext>(to router: Router<Context>, state: ServerState) {
        router.get("/api/health") { _, _ in
            let c = state.connections
            return JSONResponse.make([
                "status": "ok", "version": state.version, "timestamp": ServerTimestamp.now(),
                "connections": ["claude": c["claude"] ?? 0, "codex": c["codex"] ?? 0],
            ])
        }
        router.get("/api/status") { _, _ in
            var reply: [String: Any] = [
                "status": "running", "version": state.version,
                "uptime": Date().timeIntervalSince(state.startedAt), "health": "ok",
                "timestamp": ServerTimestamp.now(),
            ]
            if !state.faults.statusWithoutFeatures {
                reply["features"] = ["capsules": !state.faults.systemRoutesAbsent, "upload": true, "sessions": true]
            }
            return JSONResponse.make(reply)
        }
        router.get("/api/sessions") { _, _ in
            let list = state.sessions.map { s -> [String: Any] in
                [
                    "session_id": s.sessionId, "agent_type": s.agentType, "device_id": s.deviceId,
                    "message_count": s.messageCount, "created_at": s.createdAt, "last_activity": s.lastActivity,
                ]
            }
            return JSONResponse.make(["total": list.count, "sessions": list])
        }
        for agent in ["claude", "codex"] {
            router.delete("/api/\(agent)/session/:id/close") { request, context in
                guard state.isValid(key: request.headers[.authorization]) else {
                    return JSONResponse.error(.unauthorized, "Unauthorized")
                }
                let id = context.parameters.get("id") ?? ""
                return JSONResponse.make(["ok": true, "session_id": id, "closed": state.closeSession(id)])
            }
        }
    }
}
