import ArgumentParser
import BuilderOSKit
import Foundation

struct Chat: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "chat", abstract: "Send a message to Jarvis (or Codex) and stream the reply.")

    @OptionGroup var target: ServerChoice

    @Flag(help: "Talk to Codex instead of Jarvis.") var codex = false
    @OptionGroup var output: OutputOptions
    @Argument(parsing: .remaining, help: "The message.") var text: [String]

    func validate() throws {
        if text.joined(separator: " ").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw ValidationError(L("Write a message to send."))
        }
    }

    func run() async throws {
        output.apply()
        let session = try await SignedInSession.load(target)
        let agent: ChatAgent = codex ? .codex : .jarvis
        var configuration = ChatConfiguration()
        configuration.network = session.profile.network
        let client = ChatClient(server: session.server, apiKey: session.apiKey, agent: agent, configuration: configuration)
        let message = OutgoingChatMessage(
            content: text.joined(separator: " "),
            sessionId: OutgoingChatMessage.sessionID(deviceID: session.settings.deviceID, agent: agent, conversation: UUID()),
            deviceId: session.settings.deviceID, agent: agent)
        await client.start()
        _ = await client.send(message)
        var everConnected = false
        defer { Task { await client.stop() } }
        for await event in client.events {
            switch event {
            case .connection(.connected):
                everConnected = true
            case .connection(.failed(let error)):
                throw CLIFailure(error: error)
            case .connection(.waitingToReconnect(let error, _)) where !everConnected:
                // The CLI does not wait for a server that never answered.
                throw CLIFailure(error: error)
            case .delta(_, let chunk):
                Terminal.out(chunk)
            case .finished(let turn):
                Terminal.out("\n")
                switch turn.phase {
                case .completed: await client.stop(); return
                case .failed(let reason): throw CLIFailure(error: .serverRefused(message: reason), showFixIt: false)
                case .interrupted: throw CLIFailure(error: .connectionLost)
                case .notDelivered(let attempts): throw CLIFailure(error: .closedOnMessage(attempts: attempts))
                default: throw CLIFailure(error: .cancelled)
                }
            default:
                continue
            }
        }
    }
}
