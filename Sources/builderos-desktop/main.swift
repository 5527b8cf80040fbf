import BuilderOSKit
import DesktopUI
import Foundation

// builderos-desktop [--server URL] [--hidden]
// --server prefills the setup wizard's address (the demo launcher uses it); --hidden starts in the tray.
// There is no way to pass the API key on the command line or in the environment, by design.
ProcessMemory.shareArenas()
// The locale first: prepareProcess starts threads, and setlocale must not race them.
Localization.setUp(localeDirectory: Localization.directory())
DesktopApplication.prepareProcess()
var prefill = ""
var hidden = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--server": prefill = arguments.next() ?? ""
    case "--hidden": hidden = true
    case "--help", "-h":
        print(
            "Usage: builderos-desktop [--server URL] [--hidden]\n\n"
                + L(
                    "Opens BuilderOS Desktop. --server prefills the server address in the setup. --hidden starts in the system tray without opening the window (when a tray is running and setup is done)."
                ))
        exit(0)
    case "--version": print("builderos-desktop \(BuilderOSKit.version)"); exit(0)
    default:
        FileHandle.standardError.write(Data((L("Unknown option: %@", argument) + "\n").utf8))
        exit(2)
    }
}

ProcessHardening.apply(.desktop)
let status = MainActor.assumeIsolated { DesktopApplication(prefilledServer: prefill, startHidden: hidden).run() }
exit(status)
