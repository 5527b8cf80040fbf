import Foundation
import Hummingbird

/// The optional system server: capsules and power. Answers 404 when `systemRoutesAbsent` is set.
enum SystemRoutes {
    static func add<Context: RequestContext>(to router: Router<Context>, state: ServerState) {
        router.get("/api/capsules") { request, _ in
            if let refusal = gate(request, state) { return refusal }
            let list = SampleCapsules.all.map { ["name": $0.name, "title": $0.title, "purpose": $0.purpose] }
            return JSONResponse.make(["count": list.count, "capsules": list])
        }
        router.get("/api/capsules/:name") { request, context in
            if let refusal = gate(request, state) { return refusal }
            guard let name = context.parameters.get("name"),
                let capsule = SampleCapsules.all.first(where: { $0.name == name })
            else { return JSONResponse.error(.notFound, "Capsule not found") }
            return JSONResponse.make([
                "name": capsule.name, "title": capsule.title, "purpose": capsule.purpose,
                "path": capsule.path, "directories": capsule.directories,
            ])
        }
        router.post("/api/system/sleep") { request, _ in
            if let refusal = gate(request, state) { return refusal }
            state.recordSleep()
            if state.faults.legacySleepReply {
                return JSONResponse.make(["success": true, "message": "Mac is going to sleep"])
            }
            return JSONResponse.make([
                "status": "success", "message": "Mac is going to sleep (simulated)",
                "timestamp": ServerTimestamp.now(),
            ])
        }
        router.post("/api/system/wake") { request, _ in
            if let refusal = gate(request, state) { return refusal }
            return JSONResponse.make([
                "status": "not_implemented",
                "message": "Wake requires a device on the same network",
                "instructions": [
                    "option_1": "Send a Wake-on-LAN magic packet from a device on the server's network",
                    "option_2": "Press a key or open the lid of the server machine",
                ],
                "help": "Enable Wake for network access in the server machine's energy settings.",
            ])
        }
    }

    /// 404 when the system server is absent, 401 when the key is wrong, nil to proceed.
    private static func gate(_ request: Request, _ state: ServerState) -> Response? {
        if state.faults.systemRoutesAbsent { return JSONResponse.error(.notFound, "Not Found") }
        if !state.isValid(key: request.apiKeyHeader) { return JSONResponse.error(.unauthorized, "Invalid API key") }
        return nil
    }
}

struct SampleCapsule {
    var name, title, purpose, path: String
    var directories: [String]
}

enum SampleCapsules {
    static let all: [SampleCapsule] = [
        .init(
            name: "jarvis-core", title: "Jarvis Core", purpose: "The assistant's memory, tools and routines.",
            path: "/srv/builderos/capsules/jarvis-core", directories: ["docs", "src", "tests"]),
        .init(
            name: "deploy-pipeline", title: "Deploy Pipeline", purpose: "Builds, tests and ships every capsule.",
            path: "/srv/builderos/capsules/deploy-pipeline", directories: ["pipelines", "scripts"]),
        .init(
            name: "log-search", title: "Log Search", purpose: "Indexes server logs for quick questions.",
            path: "/srv/builderos/capsules/log-search", directories: ["index", "src"]),
        .init(
            name: "memory-graph", title: "Memory Graph", purpose: "Long-term notes linked by topic.",
            path: "/srv/builderos/capsules/memory-graph", directories: ["graph", "importers"]),
        .init(
            name: "home-lab", title: "Home Lab", purpose: "Controls the machines on the home network.",
            path: "/srv/builderos/capsules/home-lab", directories: ["devices", "scenes"]),
    ]
}
