#pragma once
#include <libsecret/secret.h>

// libsecret's shared backend (public and exported since 0.19, documented as `secret_backend_get`),
// whose header secret.h includes only for the unstable API. The CLI opens the Secret Service
// session through it ahead of the lookup, which then reuses that backend (CredentialStore).
#define __SECRET_INSIDE_HEADER__
#include <libsecret/secret-backend.h>
#undef __SECRET_INSIDE_HEADER__
