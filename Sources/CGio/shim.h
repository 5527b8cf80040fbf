#pragma once
// GSettingsBackend's constructors (the keyfile backend for tests) are behind this macro.
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gio.h>
#include <gio/gsettingsbackend.h>
