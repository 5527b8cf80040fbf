#define _GNU_SOURCE
#include "bos_process.h"
#include <malloc.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
static struct sigaction previous[NSIG];

static void end_now(int sig) {
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_fatal_signal(int sig, siginfo_t *info, void *context) {
    // si_code <= 0 (SI_USER, SI_QUEUE, SI_TKILL, …): sent by a process, not raised by a fault.
    if (info == NULL || info->si_code <= 0) {
        end_now(sig);
        return;
    }
    struct sigaction *old = &previous[sig];
    if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction != NULL) {
        old->sa_sigaction(sig, info, context);
    } else if (!(old->sa_flags & SA_SIGINFO) && old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
        old->sa_handler(sig);
    } else {
        end_now(sig);
    }
}

int bos_harden_process(int forbid_attach) {
    int result = forbid_attach ? prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) : 0;
    struct rlimit limit;
    if (getrlimit(RLIMIT_CORE, &limit) == 0) {
        limit.rlim_cur = 0;
        setrlimit(RLIMIT_CORE, &limit);
    }
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++) {
        int sig = fatal_signals[i];
        if (sigaction(sig, NULL, &previous[sig]) != 0) continue;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = on_fatal_signal;
        // Keep the earlier handler's alternate stack (a stack overflow is handled there).
        action.sa_flags = SA_SIGINFO | (previous[sig].sa_flags & SA_ONSTACK);
        sigemptyset(&action.sa_mask);
        sigaction(sig, &action, NULL);
    }
    return result;
}

int bos_process_is_dumpable(void) {
    return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
}

void bos_limit_malloc_arenas(int count) {
    mallopt(M_ARENA_MAX, count);
}
