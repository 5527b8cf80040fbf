#pragma once
#include "bos_curl.h"
#include "bos_i18n.h"
#include "bos_dispatch.h"
