#define _GNU_SOURCE
#include "bos_pty.h"

#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <unistd.h>

int bos_pty_spawn(const char *path, char *const argv[], char *const envp[], const char *directory, unsigned short rows,
                  unsigned short cols, int *master) {
    struct winsize size = {.ws_row = rows, .ws_col = cols};
    int fd = -1;
    pid_t pid = forkpty(&fd, NULL, NULL, &size);
    if (pid < 0) return -1;
    if (pid == 0) {
        // The child: forkpty made it a session leader with the PTY as its terminal. Signals the
        // server ignores or handles must be the defaults again for the shell.
        struct sigaction dfl = {.sa_handler = SIG_DFL};
        for (int s = 1; s < NSIG; s++) sigaction(s, &dfl, NULL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        if (directory && chdir(directory) != 0) (void)chdir("/");
        execve(path, argv, envp);
        _exit(127);
    }
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    *master = fd;
    return pid;
}

int bos_pty_resize(int master, unsigned short rows, unsigned short cols) {
    struct winsize size = {.ws_row = rows, .ws_col = cols};
    return ioctl(master, TIOCSWINSZ, &size);
}
