import ArgumentParser
import BuilderOSKit

struct Sleep: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sleep", abstract: "Put the server machine to sleep.")

    @OptionGroup var target: ServerChoice

    @Flag(help: "Confirm: the server will be unreachable until it wakes.") var yes = false
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard yes else { throw ValidationError(L("Putting the server to sleep makes it unreachable. Add --yes to confirm.")) }
    }

    func run() async throws {
        output.apply()
        let session = try await SignedInSession.load(target)
        do {
            let reply = try await session.client.sleep()
            Terminal.line(reply.message ?? L("The server is going to sleep."))
        } catch { throw CLIFailure.wrap(error) }
    }
}
