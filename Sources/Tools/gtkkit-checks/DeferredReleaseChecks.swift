import CGtk
import Foundation
import GtkKit

/// Widgets handed to `DeferredRelease` outlive their removal until the loop is idle, then go one
/// per idle turn, after any work of higher priority (a frame that is due).
@MainActor
enum DeferredReleaseChecks {
    static let releasedWhenIdle = Check(
        name: "a removed widget handed to DeferredRelease is destroyed when the loop is idle, one a turn, after busier work"
    ) {
        let window = gtk_window_new()!
        defer { gtk_window_destroy(gtkCast(window, to: GtkWindow.self)) }
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        let labels = (0..<3).map { gtk_label_new("Row \($0)")! }
        labels.forEach { gtk_box_append(gtkCast(box, to: GtkBox.self), $0) }
        gtk_window_set_child(gtkCast(window, to: GtkWindow.self), box)
        gtk_window_present(gtkCast(window, to: GtkWindow.self))
        _ = Loop.spin(seconds: 3) { gtk_widget_get_mapped(box) != 0 }
        _ = Loop.spin(seconds: 1) { g_main_context_pending(nil) == 0 }

        let watches = labels.map { FinalizationWatch(UnsafeMutableRawPointer($0)) }
        // Work of default priority that stays ready for 20 turns: nothing may be destroyed meanwhile.
        var busyTurns = 0
        var finalizedWhileBusy = 0
        let busy = Unmanaged.passRetained(
            BusyWork {
                busyTurns += 1; finalizedWhileBusy = max(finalizedWhileBusy, watches.filter(\.isFinalized).count); return busyTurns < 20
            })
        g_idle_add_full(
            G_PRIORITY_DEFAULT,
            { data in
                MainActor.assumeIsolated { Unmanaged<BusyWork>.fromOpaque(data!).takeUnretainedValue().turn() ? 1 : 0 }
            }, busy.toOpaque(), { data in Unmanaged<BusyWork>.fromOpaque(data!).release() })
        for label in labels {
            DeferredRelease.release(label)
            gtk_box_remove(gtkCast(box, to: GtkBox.self), label)
        }
        let aliveAfterRemoval = watches.filter(\.isFinalized).isEmpty
        // Then one per turn of the loop.
        var mostInOneTurn = 0
        let deadline = Date().addingTimeInterval(5)
        while !watches.allSatisfy(\.isFinalized), Date() < deadline {
            let before = watches.filter(\.isFinalized).count
            if g_main_context_iteration(nil, 0) == 0 { usleep(1000) }
            mostInOneTurn = max(mostInOneTurn, watches.filter(\.isFinalized).count - before)
        }
        let allGone = watches.allSatisfy(\.isFinalized) && DeferredRelease.count == 0
        return Outcome(
            passed: aliveAfterRemoval && finalizedWhileBusy == 0 && busyTurns == 20 && mostInOneTurn == 1 && allGone,
            detail:
                "alive after removal \(aliveAfterRemoval), destroyed while busy \(finalizedWhileBusy), busy turns \(busyTurns), most in one turn \(mostInOneTurn), all gone \(allGone)"
        )
    }
}

/// A closure run by an idle source until it returns false.
@MainActor
final class BusyWork {
    let turn: () -> Bool
    init(_ turn: @escaping () -> Bool) { self.turn = turn }
}
