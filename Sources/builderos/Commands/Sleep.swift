import ArgumentParser
import BuilderOSKit

struct Sleep: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sleep", abstract: "Put the server machine to sleep.")

    @Flag(help: "Confirm: the server will be unreachable until it wakes.") var yes = false
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard yes else { throw ValidationError(L("Putting the server to sleep makes it unreachable. Add --yes to confirm.")) }
    }

    func run() async throws {
        output.apply()
        let session = try await SignedInSession.load()
        do {
            let reply = try await session.client.sleep()
            Terminal.line(reply.message ?? L("The server is going to sleep."))
        } catch { throw CLIFailure.wrap(error) }
    }
}

struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Sign out: remove the key from your keyring and forget the server.")

    func run() async throws {
        do { try await Account().signOut() } catch { throw CLIFailure(error: error) }
        Terminal.line(L("Signed out. The API key was removed from your keyring."))
    }
}
