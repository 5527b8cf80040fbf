#pragma once
#include <gtk/gtk.h>
#include <glib-unix.h>
