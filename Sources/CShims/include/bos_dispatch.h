// libdispatch's main-queue hooks for foreign run loops (exported by libdispatch, not in its
// public headers). Used to run DispatchQueue.main and @MainActor work inside GLib's main loop.
#pragma once
int _dispatch_get_main_queue_handle_4CF(void);
void _dispatch_main_queue_callback_4CF(void *msg);
