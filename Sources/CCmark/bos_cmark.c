#include "bos_cmark.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// The functions used, resolved once. Callers use bos_cmark_load() first; every wrapper below assumes
// it succeeded (MarkdownParser falls back to plain text otherwise).
static struct {
    cmark_parser *(*parser_new)(int);
    void (*parser_free)(cmark_parser *);
    cmark_syntax_extension *(*find_syntax_extension)(const char *);
    int (*parser_attach_syntax_extension)(cmark_parser *, cmark_syntax_extension *);
    void (*parser_feed)(cmark_parser *, const char *, size_t);
    cmark_node *(*parser_finish)(cmark_parser *);
    void (*node_free)(cmark_node *);
    cmark_node *(*node_first_child)(cmark_node *);
    cmark_node *(*node_next)(cmark_node *);
    const char *(*node_get_type_string)(cmark_node *);
    const char *(*node_get_literal)(cmark_node *);
    const char *(*node_get_url)(cmark_node *);
    const char *(*node_get_fence_info)(cmark_node *);
    int (*node_get_heading_level)(cmark_node *);
    int (*node_get_list_type)(cmark_node *);
    int (*node_get_list_start)(cmark_node *);
    int (*node_get_start_line)(cmark_node *);
} cmark;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[256];

#define RESOLVE(library, field, name)                                             \
    do {                                                                          \
        if (!(*(void **)&cmark.field = dlsym(library, name))) {                   \
            snprintf(load_error, sizeof load_error, "cmark-gfm has no %s", name); \
            return;                                                               \
        }                                                                         \
    } while (0)

static void load(void) {
    // The extensions library needs the core one; loading it first puts both in place.
    void *extensions = dlopen("libcmark-gfm-extensions.so.0.29.0.gfm.6", RTLD_NOW | RTLD_LOCAL);
    void *core = extensions ? dlopen("libcmark-gfm.so.0.29.0.gfm.6", RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!extensions || !core) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        return;
    }
    void (*ensure_registered)(void);
    *(void **)&ensure_registered = dlsym(extensions, "cmark_gfm_core_extensions_ensure_registered");
    if (!ensure_registered) {
        snprintf(load_error, sizeof load_error, "cmark-gfm-extensions has no core extensions");
        return;
    }
    RESOLVE(core, parser_new, "cmark_parser_new");
    RESOLVE(core, parser_free, "cmark_parser_free");
    RESOLVE(core, find_syntax_extension, "cmark_find_syntax_extension");
    RESOLVE(core, parser_attach_syntax_extension, "cmark_parser_attach_syntax_extension");
    RESOLVE(core, parser_feed, "cmark_parser_feed");
    RESOLVE(core, parser_finish, "cmark_parser_finish");
    RESOLVE(core, node_free, "cmark_node_free");
    RESOLVE(core, node_first_child, "cmark_node_first_child");
    RESOLVE(core, node_next, "cmark_node_next");
    RESOLVE(core, node_get_type_string, "cmark_node_get_type_string");
    RESOLVE(core, node_get_literal, "cmark_node_get_literal");
    RESOLVE(core, node_get_url, "cmark_node_get_url");
    RESOLVE(core, node_get_fence_info, "cmark_node_get_fence_info");
    RESOLVE(core, node_get_heading_level, "cmark_node_get_heading_level");
    RESOLVE(core, node_get_list_type, "cmark_node_get_list_type");
    RESOLVE(core, node_get_list_start, "cmark_node_get_list_start");
    RESOLVE(core, node_get_start_line, "cmark_node_get_start_line");
    ensure_registered();
    loaded = 1;
}

int bos_cmark_load(void) {
    pthread_once(&once, load);
    return loaded;
}
const char *bos_cmark_load_error(void) {
    return load_error;
}

cmark_parser *bos_cmark_parser_new(int options) {
    return cmark.parser_new(options);
}
void bos_cmark_parser_free(cmark_parser *p) {
    cmark.parser_free(p);
}
int bos_cmark_parser_attach_extension(cmark_parser *p, const char *name) {
    cmark_syntax_extension *extension = cmark.find_syntax_extension(name);
    return extension ? cmark.parser_attach_syntax_extension(p, extension) : 0;
}
void bos_cmark_parser_feed(cmark_parser *p, const char *buffer, size_t length) {
    cmark.parser_feed(p, buffer, length);
}
cmark_node *bos_cmark_parser_finish(cmark_parser *p) {
    return cmark.parser_finish(p);
}

void bos_cmark_node_free(cmark_node *n) {
    cmark.node_free(n);
}
cmark_node *bos_cmark_node_first_child(cmark_node *n) {
    return cmark.node_first_child(n);
}
cmark_node *bos_cmark_node_next(cmark_node *n) {
    return cmark.node_next(n);
}
const char *bos_cmark_node_get_type_string(cmark_node *n) {
    return cmark.node_get_type_string(n);
}
const char *bos_cmark_node_get_literal(cmark_node *n) {
    return cmark.node_get_literal(n);
}
const char *bos_cmark_node_get_url(cmark_node *n) {
    return cmark.node_get_url(n);
}
const char *bos_cmark_node_get_fence_info(cmark_node *n) {
    return cmark.node_get_fence_info(n);
}
int bos_cmark_node_get_heading_level(cmark_node *n) {
    return cmark.node_get_heading_level(n);
}
int bos_cmark_node_get_list_type(cmark_node *n) {
    return cmark.node_get_list_type(n);
}
int bos_cmark_node_get_list_start(cmark_node *n) {
    return cmark.node_get_list_start(n);
}
int bos_cmark_node_get_start_line(cmark_node *n) {
    return cmark.node_get_start_line(n);
}
