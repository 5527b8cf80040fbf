import BuilderOSKit
import CGtk
import DesktopUI
import Foundation
import GtkKit

/// The scenarios where the server misbehaves: killed mid-reply and restarted (the scenario runs
/// the server itself, on the port the app was signed in to), absent system server, and a
/// 10,000-message conversation.
@MainActor
enum ResilienceScenarios: ScenarioGroup {
    static let scenarios: [String: Scenario] = [
        "resilience": resilience, "noSystemServer": noSystemServer, "notifications": notifications, "large": large,
    ]

    /// builderos-server as a child process, killed with SIGKILL like a crash.
    final class Server {
        let process = Process()
        /// `idle`: run the server and everything it starts (shells, their programs) only when the CPU has
        /// nothing else to do (`chrt --idle`, kept across fork and threads), standing in for a server on
        /// another machine when a benchmark floods from it. `network`: the network namespace to run it in (a path for
        /// `nsenter --net=`), standing in for another machine on the network.
        init(_ c: ScenarioContext, extra: [String] = [], idle: Bool = false, network: String? = nil) throws {
            let binary = c.options["server-binary"] ?? "builderos-server"
            let arguments =
                [
                    "--port", c.options["port"] ?? "0", "--key-file", c.options["key-file"] ?? "",
                    "--message-log", c.options["message-log"] ?? "/dev/null",
                ] + extra
            // nsenter and chrt exec the server: the process killed is the server itself.
            var command = [binary] + arguments
            if idle { command = ["/usr/bin/chrt", "--idle", "0"] + command }
            if let network { command = ["/usr/bin/nsenter", "--net=\(network)"] + command }
            process.executableURL = URL(fileURLWithPath: command[0])
            process.arguments = Array(command.dropFirst())
            process.standardOutput = FileHandle.nullDevice
            try process.run()
        }
        func kill() {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    static func loggedContents(_ c: ScenarioContext) -> [String] {
        let text = (try? String(contentsOfFile: c.options["message-log"] ?? "", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }.compactMap { $0["content"] as? String }
    }

    static func resilience(_ d: Driver, _ c: ScenarioContext) async {
        // Replies start after a pause, long enough to see the app wait for them.
        guard var server = try? Server(c, extra: ["--chunk-delay-ms", "40", "--response-delay-ms", "1500"]) else {
            return d.expect(false, "the server starts")
        }
        defer { server.kill() }
        guard let main = await MainScenarios.connectedMainWindow(d) else { return }
        d.activate(PageID.chat.windowAction, in: main)
        d.typeText("tell me a long story", into: "message-input", in: main)
        d.click("send", in: main)
        d.expect(await d.wait { d.texts(main).contains("Jarvis is thinking…") }, "“Jarvis is thinking…” until the first chunk")
        await d.screenshot(main, "thinking")
        d.expect(await d.wait { !d.named(prefix: "message-assistant-streaming", in: main).isEmpty }, "the reply starts streaming")
        // The thinking spinner is drawn by the app (`GtkKit/Spinner`): GtkSpinner's image, Adwaita's
        // SVG, loaded librsvg in the middle of the reply's first frames.
        d.expect(!ProcessScan.mapsLibrary("librsvg"), "the spinner was shown without loading an SVG renderer (librsvg)")
        d.expect(d.isSensitive("stop", in: main) && !d.isSensitive("send", in: main), "while it streams Stop is offered and Send waits")
        try? await Task.sleep(nanoseconds: 400_000_000)
        server.kill()
        d.expect(
            await d.wait { !d.named(prefix: "message-assistant-interrupted", in: main).isEmpty },
            "killing the server keeps the partial reply, marked interrupted")
        d.expect(d.texts(main).contains("Interrupted: the connection dropped"), "and says why")
        d.expect(
            await d.wait { MainScenarios.indicator(d, main) == "Reconnecting…" }, "the header says Reconnecting…",
            MainScenarios.indicator(d, main))
        await d.screenshot(main, "interrupted")

        for text in ["outbox one", "outbox two"] {
            d.typeText(text, into: "message-input", in: main)
            d.click("send", in: main)
        }
        d.expect(
            d.named(prefix: "message-user-queued", in: main).count == 2 && d.texts(main).contains("Waiting to send"),
            "messages written while the server is down wait in the outbox, shown as pending")
        await d.screenshot(main, "outbox")
        guard let restarted = try? Server(c) else { return d.expect(false, "the server restarts") }
        server = restarted
        d.expect(
            await d.wait(seconds: 30) { d.named(prefix: "message-user-queued", in: main).isEmpty && MainScenarios.completedReplies(d, main) == 2 },
            "after the restart the outbox is delivered and both replies arrive")
        let log = loggedContents(c)
        d.expect(log.filter { $0 == "tell me a long story" }.count == 1, "the interrupted message was received once", "\(log)")
        d.expect(
            log.filter { $0 == "outbox one" }.count == 1 && log.filter { $0 == "outbox two" }.count == 1,
            "each outbox message was received exactly once", "\(log)")
        d.expect((log.firstIndex(of: "outbox one") ?? 99) < (log.firstIndex(of: "outbox two") ?? -1), "in the order written")
        await d.screenshot(main, "outbox-delivered")

        // Stop ends the wait for a reply (the server streams slowly again).
        server.kill()
        guard let slow = try? Server(c, extra: ["--chunk-delay-ms", "60"]) else { return d.expect(false, "the server restarts") }
        server = slow
        d.expect(await d.wait(seconds: 30) { MainScenarios.indicator(d, main) == "Connected" }, "connected again")
        d.typeText("stop me halfway", into: "message-input", in: main)
        d.click("send", in: main)
        d.expect(await d.wait { !d.named(prefix: "message-assistant-streaming", in: main).isEmpty }, "the next reply streams")
        d.click("stop", in: main)
        d.expect(await d.wait { !d.named(prefix: "message-assistant-stopped", in: main).isEmpty }, "Stop ends the wait and keeps what arrived")
        d.expect(
            await d.wait { !d.isSensitive("stop", in: main) || gtk_widget_get_visible(d.widget("stop", in: main)!) == 0 },
            "and the Stop button goes away")

        // A server that closes the connection on a message gets it three times, not for ever; the message
        // stays, marked not delivered, and Send Again delivers it once the server takes it.
        server.kill()
        guard let choking = try? Server(c, extra: ["--drop-before-reply", String(ChatTurn.maxDeliveries)]) else {
            return d.expect(false, "the server restarts")
        }
        server = choking
        d.expect(await d.wait(seconds: 30) { MainScenarios.indicator(d, main) == "Connected" }, "connected to the choking server")
        d.typeText("the server chokes on this", into: "message-input", in: main)
        d.click("send", in: main)
        d.expect(
            await d.wait(seconds: 30) { !d.named(prefix: "message-user-failed", in: main).isEmpty },
            "a message the server closes on every time ends as not delivered")
        d.expect(d.texts(main).contains("Not delivered"), "the message says it was not delivered")
        // The pill with the reason comes after it. KNOWN: the list does not always follow a status pill that ends a
        // turn (it can stay below the fold until the user scrolls; see the notes), so the check scrolls as a user would.
        if let list = d.widget("message-list", in: main), let scroller = gtk_widget_get_parent(list) {
            let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(scroller))!
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment))
        }
        d.expect(await d.wait { d.texts(main).contains("every time it was sent (3 attempts)") }, "and a pill says why")
        // Three attempts, no more. One of them can be written to a connection the server is already
        // closing (it then never reads it), so the server may have logged fewer; never more.
        let chokedOn = { loggedContents(c).filter { $0 == "the server chokes on this" }.count }
        _ = await d.wait(seconds: 5, until: { chokedOn() >= ChatTurn.maxDeliveries })
        d.expect((1...ChatTurn.maxDeliveries).contains(chokedOn()), "it reached the server at most three times", "\(loggedContents(c))")
        await d.screenshot(main, "not-delivered")
        if let row = d.named(prefix: "message-user-failed", in: main).first { d.rightClick(row) }
        d.expect(await d.wait { d.widget("resend-message", in: main) != nil }, "its menu offers Send Again")
        d.click("resend-message", in: main)
        d.expect(
            await d.wait(seconds: 40) {
                loggedContents(c).filter { $0 == "the server chokes on this" }.count == ChatTurn.maxDeliveries + 1
                    && d.named(prefix: "message-user-failed", in: main).isEmpty && !d.named(prefix: "message-assistant-complete", in: main).isEmpty
            }, "Send Again delivers it and the reply arrives", "\(loggedContents(c).suffix(5)) \(MainScenarios.indicator(d, main))")
        await d.screenshot(main, "sent-again")
    }

    /// Notifications, against a FAKE org.freedesktop.Notifications that logs what it gets: a
    /// reply while the window is in the background, the connection lost and restored only after
    /// the new state held 10 s, nothing for a flap, and the sleep result.
    static func notifications(_ d: Driver, _ c: ScenarioContext) async {
        guard var server = try? Server(c) else { return d.expect(false, "the server starts") }
        defer { server.kill() }
        let log = NotificationLog(path: c.options["notification-log"] ?? "", driver: d)
        func titles() -> [String] { log.titles }
        guard let main = await MainScenarios.connectedMainWindow(d) else { return }
        d.activate(PageID.chat.windowAction, in: main)
        let isActive = { gtk_window_is_active(gtkCast(main, to: GtkWindow.self)) != 0 }
        if await d.wait(seconds: 5, until: isActive) {
            d.typeText("while you look", into: "message-input", in: main)
            d.click("send", in: main)
            d.expect(await d.wait { MainScenarios.completedReplies(d, main) == 1 }, "a reply arrives while the window is focused")
            try? await Task.sleep(nanoseconds: 500_000_000)
            d.expect(!titles().contains("Jarvis replied"), "and is not announced (the user is looking)", "\(titles())")
        }
        // Another window takes the focus: the main window is in the background now.
        g_action_group_activate_action(OpaquePointer(d.app.application), "preferences", nil)
        d.expect(await d.wait { d.window(named: "preferences") != nil && !isActive() }, "the main window goes to the background")
        d.typeText("notify me", into: "message-input", in: main)
        d.click("send", in: main)
        d.expect(
            await d.wait { titles().contains("Jarvis replied") }, "a finished reply is announced while the window is in the background", "\(titles())"
        )
        if let prefs = d.window(named: "preferences") { gtk_window_destroy(gtkCast(prefs, to: GtkWindow.self)) }

        // A short outage: the new server's start and the reconnect's backoff must fit in the rest of the
        // 10 s on a busy machine (after a 4 s outage they once did not).
        server.kill()
        try? await Task.sleep(nanoseconds: 1_500_000_000)
        guard let flap = try? Server(c) else { return d.expect(false, "the server restarts") }
        server = flap
        d.expect(await d.wait { MainScenarios.indicator(d, main) == "Connected" }, "back within seconds")
        try? await Task.sleep(nanoseconds: 11_000_000_000)
        d.expect(!titles().contains("Connection to BuilderOS lost"), "a drop shorter than 10 s is not announced", "\(titles())")

        server.kill()
        d.expect(await d.wait(seconds: 20) { titles().contains("Connection to BuilderOS lost") }, "a drop that lasts is announced after 10 s")
        guard let back = try? Server(c) else { return d.expect(false, "the server restarts") }
        server = back
        d.expect(await d.wait(seconds: 30) { titles().contains("Connected to BuilderOS again") }, "and its end too")

        d.activate(PageID.power.windowAction, in: main)
        d.expect(await d.wait { d.isSensitive("sleep-button", in: main) }, "Sleep is available")
        d.click("sleep-button", in: main)
        if let confirm = await d.wait(until: { d.window(named: "sleep-confirm") != nil }) ? d.window(named: "sleep-confirm") : nil {
            d.click("confirm-button", in: confirm)
        }
        d.expect(await d.wait { titles().contains("The server is going to sleep") }, "the sleep result is announced")
        print("notifications received: \(titles())")
    }

    static func noSystemServer(_ d: Driver, _ c: ScenarioContext) async {
        guard let main = await MainScenarios.connectedMainWindow(d) else { return }
        d.activate(PageID.dashboard.windowAction, in: main)
        await d.expectShown("Capsules are not available on this server.", "a 404 on capsules says they are not available", in: main)
        await d.screenshot(main, "dashboard-404")
        d.activate(PageID.power.windowAction, in: main)
        await d.expectShown("Sleep is not available on this server.", "Sleep says why it is unavailable", in: main)
        d.expect(!d.isSensitive("sleep-button", in: main), "and is disabled")
        await d.screenshot(main, "power-unavailable")
    }

    /// A 10,000-message conversation (seeded by the test): opening it stays responsive; older
    /// messages load when scrolling up. Prints the time it took (measured, not asserted).
    static func large(_ d: Driver, _ c: ScenarioContext) async {
        guard let main = await MainScenarios.connectedMainWindow(d) else { return }
        d.activate(PageID.chat.windowAction, in: main)
        await d.settle()
        guard let list = d.widget("conversations", in: main) else { return d.expect(false, "the conversation list exists") }
        // Open another (new, empty) conversation first, then switch to the big one and time it.
        d.popup("new-chat", in: main)
        d.click("new-chat-jarvis", in: main)
        await d.settle()
        let start = Date()
        if let row = gtk_list_box_get_row_at_index(OpaquePointer(list), 1) { gtk_list_box_select_row(OpaquePointer(list), row) }
        let opened = Date().timeIntervalSince(start)
        // The first frame lays out only what fills the window: the list starts with a screenful.
        let rowsAtOpen = ["user", "assistant", "status"].map { d.named(prefix: "message-\($0)-", in: main).count }.reduce(0, +)
        d.expect(rowsAtOpen > 0 && rowsAtOpen <= 8, "the conversation opens with a screenful of rows, not the whole page", "\(rowsAtOpen) rows")
        d.expect(await d.wait { d.texts(main).contains("message 9999") }, "the newest message is shown")
        let shown = Date().timeIntervalSince(start)
        // Its first frame made the rows in view (`OpeningFrame`; the rows beyond it, when the list
        // binds any, waited as placeholders: printed, as these short rows may all fit).
        let opening = await MainScenarios.openingFrame(d, main)
        d.expect(
            opening.map { $0.inView > 0 && $0.placeholdersInView == 0 } ?? false,
            "the conversation's first frame has the text of every row in view", "\(String(describing: opening))")
        print("MEASURE the opened conversation's first frame: \(String(describing: opening))")
        // Responsive: the main loop keeps turning while it is open (a 20 ms timer is not late by much).
        var worst = 0.0
        for _ in 0..<25 {
            let before = Date()
            try? await Task.sleep(nanoseconds: 20_000_000)
            worst = max(worst, Date().timeIntervalSince(before) - 0.02)
        }
        print(
            "MEASURE open 10,000-message conversation: \(Int(opened * 1000)) ms to open, \(Int(shown * 1000)) ms until shown; worst main-loop delay afterwards \(Int(worst * 1000)) ms"
        )
        guard let scroller = d.widget("message-list", in: main).flatMap({ gtk_widget_get_parent($0) }),
            let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(scroller))
        else { return d.expect(false, "the list scrolls") }
        // While older messages come in above, the view stays on the newest one (it once stopped a row short).
        let fromBottom = { gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment) - gtk_adjustment_get_value(adjustment) }
        d.expect(fromBottom() < 1, "the view rests at the newest message", "\(fromBottom()) px above the end")
        await d.screenshot(main, "large")
        // Rows that scrolling brings in stand as placeholders while the view moves fast, and get
        // their text once it rests (`RowPlaceholders`): the checks below look, as a reader would,
        // once the view has come to rest.
        let pendingInView = { () -> Int in
            let height = Double(gtk_widget_get_height(scroller))
            return WidgetTree.all(scroller).filter { bubble in
                guard gtk_widget_has_css_class(bubble, "bos-bubble-pending") != 0, gtk_widget_get_mapped(bubble) != 0 else { return false }
                var bounds = graphene_rect_t()
                guard gtk_widget_compute_bounds(bubble, scroller, &bounds) != 0 else { return false }
                return Double(bounds.origin.y + bounds.size.height) > 0 && Double(bounds.origin.y) < height
            }.count
        }
        var placeholdersSeen = 0, longestRest = 0
        func scroll(to value: @escaping () -> Double) async {
            gtk_adjustment_set_value(adjustment, value())
            await d.nextFrame(main)
            await d.nextFrame(main)
            let pending = pendingInView()
            if pending > 0, placeholdersSeen == 0, let appearance = d.app.appearance {
                // What a reader sees mid-jump, as drawn in that frame, light and dark (a screenshot
                // waits for the view to settle; a frame later the view still counts as moving fast).
                try? WidgetSnapshot.savePNG(of: main, to: d.outputDirectory.appendingPathComponent("\(d.scenario)-placeholders-light.png").path)
                appearance.set(.dark)
                await d.nextFrame(main)
                try? WidgetSnapshot.savePNG(of: main, to: d.outputDirectory.appendingPathComponent("\(d.scenario)-placeholders-dark.png").path)
                appearance.set(.light)
            }
            placeholdersSeen = max(placeholdersSeen, pending)
            var frames = 0
            while pendingInView() > 0, frames < 120 {
                await d.nextFrame(main)
                frames += 1
            }
            longestRest = max(longestRest, frames)
        }
        // Scrolling up again and again (as a user would) keeps bringing older messages, a page at a time.
        let olderShown = { () -> Bool in
            let numbers = d.texts(main).split(separator: "\n").compactMap { $0.hasPrefix("message ") ? Int($0.dropFirst(8)) : nil }
            return numbers.contains { $0 < 9900 }
        }
        var scrolls = 0
        for _ in 0..<60 where !olderShown() {
            scrolls += 1
            await scroll { 0 }
        }
        d.expect(olderShown(), "scrolling to the top loads older messages", "after \(scrolls) scrolls")
        print("MEASURE scrolls to the top until messages below 9,900 showed: \(scrolls)")

        // Further up, the list keeps a bounded window of messages: the newest leave it, and come
        // back when the view goes down again.
        // The questions read "message N" (even N); the newest is 9998.
        let numbers = { () -> [Int] in
            d.texts(main).split(separator: "\n").compactMap { (line: Substring) -> Int? in
                line.hasPrefix("message ") ? Int(String(line.dropFirst(8))) : nil
            }
        }
        let inModel = { () -> Int in
            guard let view = d.widget("message-list", in: main), let model = gtk_list_view_get_model(OpaquePointer(view)) else { return -1 }
            return Int(g_list_model_get_n_items(model))
        }
        var most = 0
        for _ in 0..<200 where !(numbers().min().map { $0 < 9600 } ?? false) {
            await scroll { 0 }
            most = max(most, inModel())
        }
        d.expect(numbers().contains { $0 < 9600 }, "scrolling up reaches messages 400 back")
        // 48 messages, and the page read above them before the newest leave.
        d.expect(most > 0 && most <= 60, "the list holds a bounded window of messages", "at most \(most) in the model")
        d.expect(!numbers().contains(9998), "the newest question left the window while the view is far above it")
        var downs = 0
        for _ in 0..<300 where !numbers().contains(9998) {
            downs += 1
            await scroll { gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment) }
        }
        d.expect(numbers().contains(9998), "scrolling down brings the newest question back", "after \(downs) scrolls")
        // A jump of a screen or more a frame is fast: the rows it brought into view stood empty, and
        // got their text within a few frames of the view coming to rest.
        d.expect(placeholdersSeen > 0, "rows brought in while the view jumps stand as placeholders", "at most \(placeholdersSeen) in view")
        d.expect(longestRest < 120, "once the view rests, the rows in it get their text", "within \(longestRest) frames")
        print("MEASURE frames until the rows in view had their text after a jump: at most \(longestRest)")

        // Far up again, your own new message brings the view back to the newest messages.
        for _ in 0..<200 where numbers().contains(9998) || !(numbers().min().map { $0 < 9600 } ?? false) {
            await scroll { 0 }
        }
        d.expect(!numbers().contains(9998), "the newest left the window again")
        await d.screenshot(main, "large-far-up")
        d.typeText("back to the newest", into: "message-input", in: main)
        d.click("send", in: main)
        d.expect(
            await d.wait { d.texts(main).contains("back to the newest") && numbers().contains(9998) },
            "sending from far up shows your message with the newest ones")
        d.expect(await d.wait { fromBottom() < 1 }, "and the view rests at the end", "\(fromBottom()) px above the end")
        await d.screenshot(main, "large-sent-from-far-up")

        // A conversation whose newest reply is taller than the view (seeded by the test): its first
        // frame shows the reply's end, and the question above it, which the list binds but that
        // frame does not show, waits as a placeholder (`OpeningFrame`).
        guard let listView = d.widget("message-list", in: main) else { return d.expect(false, "the message list exists") }
        WidgetTree.setStateName(listView, "")
        var index: Int32 = 0
        while let row = gtk_list_box_get_row_at_index(OpaquePointer(list), index) {
            if WidgetTree.visibleTexts(in: UnsafeMutablePointer(OpaquePointer(row))).contains("Tall reply") {
                gtk_list_box_select_row(OpaquePointer(list), row)
                break
            }
            index += 1
        }
        let tall = await MainScenarios.openingFrame(d, main)
        d.expect(
            tall.map { $0.inView >= 1 && $0.placeholdersInView == 0 && $0.beyond >= 1 } ?? false,
            "a tall reply's first frame made the rows in view and left the question above it a placeholder", "\(String(describing: tall))")
        d.expect(
            await d.wait { fromBottom() < 1 && d.texts(main).contains("Line 60 of the tall reply, one of sixty paragraphs.") },
            "and showed the reply's end", "\(fromBottom()) px above the end")
        // As a reader would: once the reply has settled. While its column still lays out blocks (a
        // few a frame after opening, longer on a slow machine) the list takes a move of the view for
        // its own and keeps following the end.
        var stableFrames = 0, lastUpper = gtk_adjustment_get_upper(adjustment)
        for _ in 0..<600 where stableFrames < 10 {
            await d.nextFrame(main)
            let upper = gtk_adjustment_get_upper(adjustment)
            stableFrames = upper == lastUpper ? stableFrames + 1 : 0
            lastUpper = upper
        }
        await scroll { 0 }
        d.expect(
            await d.wait { d.texts(main).contains("the long one, please") }, "the question above it gets its text once scrolled to",
            "\(gtk_adjustment_get_value(adjustment)) px from the top")
        await d.screenshot(main, "large-tall-reply")
    }
}
