// Process hardening for every process that holds the API key (see BuilderOSKit/Security/ProcessHardening).
#pragma once

/// No core dump (RLIMIT_CORE 0), and fatal signals sent from outside (kill -SEGV) end the process at once instead
/// of going to a crash reporter; faults of the process itself still reach the handler that was installed before.
/// With `forbid_attach`, also PR_SET_DUMPABLE 0: no core dump whatever the core pattern, and no ptrace attach by
/// other processes of the user — but xdg-desktop-portal then refuses every request of the process (it cannot open
/// /proc/<pid>/root), so a desktop app that uses portals leaves it off.
/// Returns 0 on success.
int bos_harden_process(int forbid_attach);

/// 1 when the process may dump core, 0 when not (PR_GET_DUMPABLE), for the tests.
int bos_process_is_dumpable(void);

/// At most `count` malloc arenas for all the process's threads (mallopt M_ARENA_MAX). Before any thread starts.
void bos_limit_malloc_arenas(int count);
