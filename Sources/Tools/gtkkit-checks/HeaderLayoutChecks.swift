import CGtk
import Foundation
import GtkKit

/// `HeaderLayout` and `WideOrNarrow`, on blocks of fixed sizes allocated at chosen widths: what gives way,
/// in which order, and where everything lands (right to left as well).
@MainActor
enum HeaderLayoutChecks {
    static let yieldsInOrder = Check(
        name: "a header layout centres its middle child, gives way in its order (hidden, compact, shrunk) and gives back what fits"
    ) {
        // Leading: a 20 px block, a 100 px title, a 60-or-20 state, a 100 px name that can shrink to 30.
        // Middle: 200 px, or 80 compact. Trailing: a 40 px block. Spacing 10.
        let start = block(20), title = block(100), trailing = block(40)
        let state = WideOrNarrow.box(wide: block(60), narrow: block(20))
        let nameBox = WideOrNarrow.box(wide: block(100), narrow: block(30))
        let middle = WideOrNarrow.box(wide: block(200), narrow: block(80))
        let box = HeaderLayout.box(
            leading: [start, title, nameBox, state], center: middle, trailing: [trailing],
            steps: [.hide(title), .compact(state), .compact(middle), .shrink(nameBox)], spacing: 10)
        _ = g_object_ref_sink(UnsafeMutableRawPointer(box))
        defer { g_object_unref(UnsafeMutableRawPointer(box)) }

        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_measure(box, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
        // Minimum: 20 + 30 + 20 leading, 80, 40, spacing 10 × 4. Natural: 200 + 2 × (310 + 10).
        var findings = ["minimum \(minimum) (230)", "natural \(natural) (840)"]
        var passed = minimum == 230 && natural == 840

        @MainActor func layout(_ width: Int32, rtl: Bool = false) -> [Int32?] {
            gtk_widget_set_direction(box, rtl ? GTK_TEXT_DIR_RTL : GTK_TEXT_DIR_LTR)
            var allocation = GtkAllocation(x: 0, y: 0, width: width, height: 30)
            gtk_widget_size_allocate(box, &allocation, -1)
            return [start, title, nameBox, state, middle, trailing].map { child in
                guard gtk_widget_get_child_visible(child) != 0 else { return nil }
                var placed = GtkAllocation()
                gtk_widget_get_allocation(child, &placed)
                return placed.x
            }
        }
        @MainActor func expect(_ width: Int32, _ wanted: [Int32?], forms: (state: Bool, middle: Bool), rtl: Bool = false) {
            let got = layout(width, rtl: rtl)
            let gotForms = (WideOrNarrow.isWide(state), WideOrNarrow.isWide(middle))
            let name = "\(width) px\(rtl ? " rtl" : ""): \(got.map { $0.map(String.init) ?? "-" })"
            findings.append(name)
            passed = passed && got == wanted && gotForms == forms
        }
        // Room for everything: the middle centred.
        expect(840, [0, 30, 140, 250, 320, 800], forms: (true, true))
        // Not centred, but it fits: pushed right of the leading row.
        expect(680, [0, 30, 140, 250, 320, 640], forms: (true, true))
        // The title gives way first, then the state's wide form, then the middle's.
        expect(560, [0, nil, 30, 140, 210, 520], forms: (true, true))
        expect(450, [0, nil, 30, 140, 170, 410], forms: (false, true))
        // The middle's compact form leaves room for the state's wide form again (not for the title).
        expect(400, [0, nil, 30, 140, 210, 360], forms: (true, false))
        // Last, the name shrinks by what is missing, down to its minimum.
        expect(260, [0, nil, 30, 100, 130, 220], forms: (false, false))
        expect(230, [0, nil, 30, 70, 100, 190], forms: (false, false))
        // Right to left: the same places, mirrored.
        expect(840, [820, 710, 600, 530, 320, 0], forms: (true, true), rtl: true)
        return Outcome(passed: passed, detail: findings.joined(separator: "; "))
    }

    private static func block(_ width: Int32) -> Widget {
        let block = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_widget_set_size_request(block, width, 10)
        return block
    }
}
