// gettext wrappers: the Glibc module owns <libintl.h> but does not export it to Swift.
#pragma once
const char *bos_dgettext(const char *domain, const char *msgid);
const char *bos_dngettext(const char *domain, const char *singular, const char *plural, unsigned long n);
void bos_bindtextdomain(const char *domain, const char *dir);
void bos_setlocale_from_environment(void);
