import CProcess

/// How the app's memory allocator is set up.
public enum ProcessMemory {
    /// At most two malloc arenas for all threads. glibc gives a thread that allocates while others do an
    /// arena of its own (up to eight per core), each with pages of its own; the app's work is on the main
    /// thread, and its other threads (libcurl's, GLib's, the font preload) allocate little. Call it first in
    /// `main`, before any thread starts.
    public static func shareArenas() { bos_limit_malloc_arenas(2) }
}
