#pragma once
#include <sqlite3.h>
