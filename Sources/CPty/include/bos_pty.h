#pragma once
// Pseudo-terminals for the reference server's terminal socket: what Swift cannot do safely itself
// (between fork and exec only async-signal-safe calls may run, and Swift code may allocate).

/// Starts `path` (argv as given, NULL-terminated) in `directory` on a new PTY of rows × cols, with
/// exactly `envp` as its environment, in a session (and so a process group) of its own. Returns the
/// child's pid and the PTY's master side in `*master` (close-on-exec); -1 with errno on failure.
int bos_pty_spawn(const char *path, char *const argv[], char *const envp[], const char *directory, unsigned short rows,
                  unsigned short cols, int *master);

/// Tells the PTY (and so the program in it, through SIGWINCH) its new size. 0 or -1 with errno.
int bos_pty_resize(int master, unsigned short rows, unsigned short cols);
