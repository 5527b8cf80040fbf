import Foundation

/// The yardstick for scrolling: GTK's own list view in C, 10,000 one-line labels in the window the
/// scrolling scenario uses, moved the same way (a part of a page a frame, end to end and back, from
/// the newest end when it starts up) for as many frames as the app's run took, each frame timed as
/// `FrameMeter` times the app's (from the frame clock's "before-paint" to its "after-paint").
/// Its late frames are what this machine and GTK give the simplest rows scrolled at that pace.
enum ReferenceList {
    struct Figures { var frames: Int, late: Int, longestMilliseconds: Double, p99Milliseconds: Double }

    static let source = #"""
        #include <gtk/gtk.h>
        #include <math.h>
        #include <stdio.h>
        #include <stdlib.h>

        static GtkAdjustment *adjustment;
        static double step;
        static long target, frames, late, resting, positioned;
        static int direction;
        static gint64 begin, *took;

        static void before_paint(GdkFrameClock *clock, gpointer data) { begin = g_get_monotonic_time(); }

        static int ascending(const void *a, const void *b) {
          gint64 x = *(const gint64 *)a, y = *(const gint64 *)b;
          return (x > y) - (x < y);
        }

        static void after_paint(GdkFrameClock *clock, gpointer data) {
          if (begin == 0 || positioned < 30) return;
          gint64 t = g_get_monotonic_time() - begin;
          took[frames++] = t;
          if (t > 16000) late++;
          if (frames < target) return;
          qsort(took, frames, sizeof *took, ascending);
          printf("frames=%ld late=%ld longest-ms=%.1f p50-ms=%.1f p99-ms=%.1f\n", frames, late, took[frames - 1] / 1000.0, took[frames / 2] / 1000.0,
                 took[frames * 99 / 100] / 1000.0);
          exit(0);
        }

        static gboolean tick(GtkWidget *widget, GdkFrameClock *clock, gpointer data) {
          double page = gtk_adjustment_get_page_size(adjustment), value = gtk_adjustment_get_value(adjustment);
          double top = 0, bottom = gtk_adjustment_get_upper(adjustment) - page;
          if (positioned < 30) { /* rest at the end the first direction starts from */
            gtk_adjustment_set_value(adjustment, direction < 0 ? bottom : top);
            positioned++;
            return G_SOURCE_CONTINUE;
          }
          double end = direction < 0 ? top : bottom;
          if (fabs(value - end) < 1) {
            if (++resting >= 30) { direction = -direction; resting = 0; }
          } else {
            resting = 0;
          }
          double next = value + direction * page * step;
          gtk_adjustment_set_value(adjustment, direction < 0 ? MAX(next, top) : MIN(next, bottom));
          return G_SOURCE_CONTINUE;
        }

        static void setup(GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data) {
          GtkWidget *label = gtk_label_new(NULL);
          gtk_label_set_xalign(GTK_LABEL(label), 0);
          gtk_label_set_ellipsize(GTK_LABEL(label), PANGO_ELLIPSIZE_END);
          gtk_list_item_set_child(item, label);
        }

        static void bind(GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data) {
          GtkStringObject *text = gtk_list_item_get_item(item);
          gtk_label_set_text(GTK_LABEL(gtk_list_item_get_child(item)), gtk_string_object_get_string(text));
        }

        int main(int argc, char **argv) {
          if (argc < 4) return 2;
          step = atof(argv[1]);
          target = atol(argv[2]);
          direction = strcmp(argv[3], "up") == 0 ? -1 : 1;
          took = g_new0(gint64, target);
          gtk_init();
          static const char *words[] = {"the", "build", "server", "reply", "conversation", "message", "with", "a", "table", "code"};
          GtkStringList *model = gtk_string_list_new(NULL);
          GString *line = g_string_new(NULL);
          for (int i = 0; i < 10000; i++) {
            g_string_printf(line, "Message %d:", i);
            for (int w = 0; w < 4 + (i * 7) % 17; w++) g_string_append_printf(line, " %s", words[(i + w * 3) % 10]);
            gtk_string_list_append(model, line->str);
          }
          GtkListItemFactory *factory = gtk_signal_list_item_factory_new();
          g_signal_connect(factory, "setup", G_CALLBACK(setup), NULL);
          g_signal_connect(factory, "bind", G_CALLBACK(bind), NULL);
          GtkWidget *list = gtk_list_view_new(GTK_SELECTION_MODEL(gtk_no_selection_new(G_LIST_MODEL(model))), factory);
          GtkWidget *scroller = gtk_scrolled_window_new();
          gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroller), list);
          adjustment = gtk_scrolled_window_get_vadjustment(GTK_SCROLLED_WINDOW(scroller));
          GtkWidget *window = gtk_window_new();
          gtk_window_set_default_size(GTK_WINDOW(window), 1100, 800);
          gtk_window_set_child(GTK_WINDOW(window), scroller);
          gtk_widget_realize(window);
          GdkFrameClock *clock = gtk_widget_get_frame_clock(window);
          g_signal_connect(clock, "before-paint", G_CALLBACK(before_paint), NULL);
          g_signal_connect(clock, "after-paint", G_CALLBACK(after_paint), NULL);
          gtk_widget_add_tick_callback(window, tick, NULL, NULL);
          gtk_window_present(GTK_WINDOW(window));
          while (TRUE) g_main_context_iteration(NULL, TRUE);
        }
        """#

    /// Compiles the list into `directory`; returns the binary's path.
    static func build(in directory: URL) throws -> String { try CProgram.build(source, named: "reference-list", in: directory) }

    /// Scrolls `frames` frames, `step` of a page a frame, starting `up` (from the newest end) or down.
    static func run(_ binary: String, step: String, frames: Int, up: Bool, environment: [String: String]) -> Figures? {
        let output = Processes.output("/usr/bin/timeout", ["600", binary, step, String(frames), up ? "up" : "down"], environment: environment)
        var values: [String: Double] = [:]
        for pair in output.split(whereSeparator: \.isWhitespace) {
            let parts = pair.split(separator: "=")
            if parts.count == 2, let value = Double(parts[1]) { values[String(parts[0])] = value }
        }
        guard let counted = values["frames"], let late = values["late"], let longest = values["longest-ms"], let p99 = values["p99-ms"] else {
            return nil
        }
        return Figures(frames: Int(counted), late: Int(late), longestMilliseconds: longest, p99Milliseconds: p99)
    }
}
