import Foundation
import Hummingbird

/// Test controls (only with `--test-controls`): read and set the fault switches over HTTP so a
/// test driving the server as a separate process can flip them, and read how many requests
/// reached each path (a test counts what a command sent) and which wrong keys were sent to it.
enum ControlRoutes {
    static func add<Context: RequestContext>(to router: Router<Context>, state: ServerState) {
        router.get("/__reference/faults") { _, _ in
            let data = try JSONEncoder().encode(state.faults)
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        router.get("/__reference/requests") { _, _ in
            JSONResponse.make(state.requestCounts().filter { !$0.key.hasPrefix("/__reference") })
        }
        router.get("/__reference/wrong-keys") { _, _ in JSONResponse.make(["wrong_keys": state.wrongKeys()]) }
        router.put("/__reference/faults") { request, _ in
            let body = try await request.body.collect(upTo: 65_536)
            guard let faults = try? JSONDecoder().decode(Faults.self, from: Data(buffer: body)) else {
                return JSONResponse.error(.badRequest, "Invalid faults document")
            }
            state.faults = faults
            return JSONResponse.make(["ok": true])
        }
    }
}
