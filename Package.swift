// swift-tools-version:6.1
// BuilderOS Desktop. The layers and which may use which: ARCHITECTURE.md ("Layers"); the targets
// below declare exactly that. Why the link settings: docs/performance.md ("Rules: loading and linking").
import PackageDescription

let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]
// The product executables link with lld and pack their relative relocations (DT_RELR, glibc ≥ 2.36):
// with the Swift runtime and Foundation linked in, the loader otherwise reads 1.8 MB of them at every start.
let packedRelocations: [LinkerSetting] = [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"])]
// Release links lay out first, side by side, the functions the executable runs at start-up (and the
// app at idle): `link-order/<product>.txt`, made by meson-helpers/update-link-order. The kernel maps
// code around each page first run, so start-up code scattered over the Swift runtime, Foundation and
// the app would make most of it resident.
func hotFunctionsFirst(_ product: String) -> [LinkerSetting] {
    packedRelocations + [
        .unsafeFlags(
            [
                "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/link-order/\(product).txt",
                "-Xlinker", "--no-warn-symbol-ordering",
            ], .when(configuration: .release))
    ]
}
// The CLI links libstdc++ statically: see link-static/libstdc++.so (a linker script) for why and how.
let staticCxxRuntime: [LinkerSetting] = [.unsafeFlags(["-L\(Context.packageDirectory)/link-static"])]

let package = Package(
    name: "BuilderOSDesktop",
    products: [
        .library(name: "BuilderOSKit", targets: ["BuilderOSKit"]),
        .library(name: "ReferenceServer", targets: ["ReferenceServer"]),
        .executable(name: "builderos-desktop", targets: ["builderos-desktop"]),
        .executable(name: "builderos", targets: ["builderos"]),
        .executable(name: "builderos-server", targets: ["builderos-server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
    ],
    targets: [
        // MARK: C modules
        .systemLibrary(name: "CGtk", pkgConfig: "gtk4", providers: [.apt(["libgtk-4-dev"])]),
        .systemLibrary(name: "CSecret", pkgConfig: "libsecret-1", providers: [.apt(["libsecret-1-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CGio", pkgConfig: "gio-2.0", providers: [.apt(["libglib2.0-dev"])]),
        // Wrappers for C variadic functions and macros that Swift cannot import, and libcurl through
        // dlopen on the first request (curl's headers only at build time: libcurl4-openssl-dev).
        .target(name: "CShims", linkerSettings: [.linkedLibrary("dl")]),
        // GLib-based libraries opened on first use go through GModule, in the one safe lock order.
        .target(name: "CGLibBasedLibrary", dependencies: ["CGio"], linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("gmodule-2.0")]),
        // libsoup 3 through dlopen when the first socket opens (chat, terminal): not linked, so neither the
        // app's first frame nor a `builderos` command pays for loading it and the libraries only it brings.
        .target(name: "CSoup", dependencies: ["CGio", "CGLibBasedLibrary"], linkerSettings: [.linkedLibrary("dl")]),
        // cmark-gfm the same way, when the first Markdown is parsed (the CLI never does).
        .target(name: "CCmark", linkerSettings: [.linkedLibrary("dl")]),
        // No core dumps, no attach, external fatal signals end the process: for every process holding the key.
        .target(name: "CProcess"),
        // forkpty for the reference server's terminal socket (fork → exec without Swift in between).
        .target(name: "CPty"),
        // WebKitGTK 6.0 through dlopen on first use (the Preview page): no link-time dependency, no start-up cost.
        .target(name: "CWebView", dependencies: ["CGtk", "CGLibBasedLibrary"]),
        // VTE (libvte-2.91-gtk4) the same way, for the Terminal page.
        .target(name: "CTerminalView", dependencies: ["CGtk", "CGLibBasedLibrary"]),
        // A GtkLabel subclass that measures wrapped text with one Pango layout instead of three or four.
        .target(name: "CTextLabel", dependencies: ["CGtk"]),
        .target(name: "CStartPreload", dependencies: ["CGtk"]),
        // A stand-in for GTK's theme, so the app loads that theme itself without what it never shows.
        .target(name: "CGtkTheme", dependencies: ["CGtk"]),

        // MARK: Domain core (no GTK)
        .target(
            name: "BuilderOSKit",
            dependencies: ["CSoup", "CSecret", "CGio", "CShims", "CProcess", "CSQLite", "CCmark"],
            swiftSettings: swift6
        ),

        // MARK: Thin Swift GTK/GObject layer (ownership, signals, main loop, CSS; no product logic)
        .target(
            name: "GtkKit", dependencies: ["CGtk", "CShims", "CWebView", "CTerminalView", "CTextLabel", "CStartPreload", "CGtkTheme"],
            swiftSettings: swift6),

        // MARK: The app's windows and pages
        .target(name: "DesktopUI", dependencies: ["BuilderOSKit", "GtkKit", "CGtk"], swiftSettings: swift6),

        // MARK: Reference server (demo and tests)
        .target(
            name: "ReferenceServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                "CPty",
            ],
            swiftSettings: swift6
        ),

        // MARK: The product's executables (Sources/<name>): the app, the CLI, the reference server
        .executableTarget(
            name: "builderos-desktop", dependencies: ["DesktopUI", "BuilderOSKit"], swiftSettings: swift6,
            linkerSettings: hotFunctionsFirst("builderos-desktop")),
        .executableTarget(
            name: "builderos",
            dependencies: ["BuilderOSKit", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swift6, linkerSettings: hotFunctionsFirst("builderos") + staticCxxRuntime
        ),
        .executableTarget(
            name: "builderos-server",
            dependencies: ["ReferenceServer", "CProcess", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swift6, linkerSettings: packedRelocations
        ),

        // MARK: Tooling (Sources/Tools): test drivers, fuzzing, faults, benchmarks — never installed
        // Drives the real app under Xvfb against builderos-server (Tests/DesktopUITests/*UITests).
        .executableTarget(
            name: "desktop-ui-checks", dependencies: ["DesktopUI", "GtkKit", "BuilderOSKit", "CGtk", "CTerminalView"],
            path: "Sources/Tools/desktop-ui-checks", swiftSettings: swift6),
        // Runs the GtkKit checks in a real GTK process (see Tests/DesktopUITests/GtkKitChecksTests).
        .executableTarget(
            name: "gtkkit-checks", dependencies: ["GtkKit", "BuilderOSKit", "CGtk"], path: "Sources/Tools/gtkkit-checks", swiftSettings: swift6),
        // Seeded fuzzing of every decoder (meson-helpers/fuzz-decoders; a fast subset runs in the tests).
        .executableTarget(
            name: "builderos-fuzz", dependencies: ["BuilderOSKit", "ToolSupport"], path: "Sources/Tools/builderos-fuzz", swiftSettings: swift6),
        // What the quality tools and the tests share: the reference server as a child process, statistics, grep, loopback sockets.
        .target(name: "ToolSupport", path: "Sources/Tools/ToolSupport", swiftSettings: swift6),
        // The fault suite (meson-helpers/fault-suite; a fast subset runs in the tests).
        .executableTarget(
            name: "builderos-faults", dependencies: ["BuilderOSKit", "ToolSupport"], path: "Sources/Tools/builderos-faults", swiftSettings: swift6),
        // The benchmark table (meson-helpers/benchmark); not part of the tests.
        .executableTarget(
            name: "builderos-bench", dependencies: ["BuilderOSKit", "ToolSupport", "ReferenceServer"], path: "Sources/Tools/builderos-bench",
            swiftSettings: swift6),

        // MARK: Tests
        // Fixtures/: files written by earlier releases, read by the upgrade tests.
        .testTarget(
            name: "BuilderOSKitTests", dependencies: ["BuilderOSKit", "ToolSupport"], exclude: ["Fixtures"], swiftSettings: swift6),
        // The code's style: no literal spacing, size or duration in DesktopUI (the formatter runs in meson-helpers/run-tests).
        .testTarget(name: "StyleTests", swiftSettings: swift6),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["BuilderOSKit", "ReferenceServer", "ToolSupport", "ProcessHarness"],
            swiftSettings: swift6
        ),
        // Process-level tests share one harness: the built executables run as a user would.
        .target(name: "ProcessHarness", path: "Tests/ProcessHarness", swiftSettings: swift6),
        // The CLI and the tools (fault and fuzz subsets) as processes.
        .testTarget(name: "CLITests", dependencies: ["BuilderOSKit", "ToolSupport", "ProcessHarness"], swiftSettings: swift6),
        // The app itself, driven on X11 and on Wayland by desktop-ui-checks (screenshots), and GtkKit's checks in a GTK process.
        .testTarget(name: "DesktopUITests", dependencies: ["BuilderOSKit", "ToolSupport", "ProcessHarness"], swiftSettings: swift6),
        // What gets installed: meson install into a temporary prefix, the data files, the translations.
        .testTarget(name: "PackagingTests", dependencies: ["ProcessHarness"], swiftSettings: swift6),
        // GTK itself parses the generated stylesheet (no display needed for CSS).
        .testTarget(name: "StyleSheetTests", dependencies: ["BuilderOSKit", "CGtk"], swiftSettings: swift6),
    ]
)
