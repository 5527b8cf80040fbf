#include "bos_i18n.h"
#include <libintl.h>
#include <locale.h>

const char *bos_dgettext(const char *d, const char *m) {
    return dgettext(d, m);
}
const char *bos_dngettext(const char *d, const char *s, const char *p, unsigned long n) {
    return dngettext(d, s, p, n);
}
void bos_bindtextdomain(const char *d, const char *dir) {
    if (dir) bindtextdomain(d, dir);
    bind_textdomain_codeset(d, "UTF-8");
}
void bos_setlocale_from_environment(void) {
    setlocale(LC_ALL, "");
}
