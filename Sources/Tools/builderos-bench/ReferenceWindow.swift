import Foundation

/// The yardstick: a minimal GTK 4 window in C, built by the harness itself, that exits after its
/// first painted frame (or some seconds later) exactly as the app does under the benchmark switch,
/// writing that frame's time to the file named by `BUILDEROS_BENCHMARK_FIRST_FRAME_FILE` as the app does.
enum ReferenceWindow {
    static let source = [
        "#include <gtk/gtk.h>",
        "#include <stdio.h>",
        "#include <stdlib.h>",
        "#include <time.h>",
        "static double delay;",
        "static gboolean quit_now(gpointer data) { exit(0); return G_SOURCE_REMOVE; }",
        "static void painted(GdkFrameClock *clock, gpointer data) {",
        "  const char *path = getenv(\"BUILDEROS_BENCHMARK_FIRST_FRAME_FILE\");",
        "  FILE *f = path ? fopen(path, \"w\") : NULL;",
        "  if (f) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);",
        "           fprintf(f, \"%lld\\n\", (long long)t.tv_sec * 1000000000LL + t.tv_nsec); fclose(f); }",
        "  if (delay <= 0) exit(0);",
        "  g_timeout_add((guint)(delay * 1000), quit_now, NULL);",
        "  g_signal_handlers_disconnect_by_func(clock, painted, data);",
        "}",
        "static gboolean first_tick(GtkWidget *w, GdkFrameClock *clock, gpointer data) {",
        "  g_signal_connect(clock, \"after-paint\", G_CALLBACK(painted), NULL);",
        "  return G_SOURCE_REMOVE;",
        "}",
        "int main(int argc, char **argv) {",
        "  delay = argc > 1 ? atof(argv[1]) : 0;",
        "  gtk_init();",
        "  GtkWidget *window = gtk_window_new();",
        "  gtk_window_set_default_size(GTK_WINDOW(window), 1000, 720);",
        "  gtk_window_set_child(GTK_WINDOW(window), gtk_label_new(\"BuilderOS\"));",
        "  gtk_widget_add_tick_callback(window, first_tick, NULL, NULL);",
        "  gtk_window_present(GTK_WINDOW(window));",
        "  while (TRUE) g_main_context_iteration(NULL, TRUE);",
        "}",
    ].joined(separator: "\n")

    /// Compiles the window into `directory`; returns the binary's path.
    static func build(in directory: URL) throws -> String { try CProgram.build(source, named: "reference-window", in: directory) }
}
