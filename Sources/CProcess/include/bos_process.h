// Process hardening for every process that holds the API key (see BuilderOSKit/Security/ProcessHardening).
#pragma once

/// No core dump and no ptrace attach by other processes of the user (PR_SET_DUMPABLE 0, RLIMIT_CORE 0), and
/// fatal signals sent from outside (kill -SEGV) end the process at once instead of going to a crash
/// reporter; faults of the process itself still reach the handler that was installed before.
/// Returns 0 when the process is no longer dumpable.
int bos_harden_process(void);

/// 1 when the process may dump core, 0 when not (PR_GET_DUMPABLE), for the tests.
int bos_process_is_dumpable(void);
