import BuilderOSKit

/// A command that sends REST requests (libcurl, loaded with dlopen). Its process starts loading
/// libcurl on a thread of its own as it starts, before the arguments are parsed. Started beside the
/// keyring lookup instead, the two slowed each other: a dlopen holds the dynamic loader's lock, which
/// every new thread (libsecret's, GDBus's, Swift's executor's) waits for. Measured with uprobes on
/// `status`: exec to exit 34–43 ms before, 32 ms after. Chat, terminal and the rest never load it.
protocol CallsTheServerOverREST {
    /// The command's name on the command line (also its `CommandConfiguration.commandName`).
    static var name: String { get }
}

enum RESTWarmUp {
    static let commands: [any CallsTheServerOverREST.Type] = [Login.self, Status.self, Capsules.self, Sleep.self]

    /// Starts loading libcurl when the first argument names a command that will need it. Only the
    /// name is looked at: a mistyped command just parses without it.
    static func start(for arguments: [String]) {
        guard let first = arguments.dropFirst().first, commands.contains(where: { $0.name == first }) else { return }
        RESTClient.warmUp()
    }
}
