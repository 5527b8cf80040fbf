// cmark-gfm, loaded with dlopen when the first Markdown is parsed rather than linked: the
// `builderos` CLI never parses Markdown and should not load it, and the app loads it only when a
// conversation is shown. The types are opaque here and the two constants are cmark-gfm's ABI values
// (CMARK_OPT_DEFAULT, CMARK_ORDERED_LIST in cmark-gfm.h), so its headers are not needed.
#pragma once
#include <stddef.h>

typedef struct cmark_parser cmark_parser;
typedef struct cmark_node cmark_node;
typedef struct cmark_syntax_extension cmark_syntax_extension;

enum { BOS_CMARK_OPT_DEFAULT = 0, BOS_CMARK_ORDERED_LIST = 2 };

/// Loads cmark-gfm and its extensions once (thread-safe) and registers the core extensions; 1 on
/// success. On failure, `bos_cmark_load_error` says why.
int bos_cmark_load(void);
const char *bos_cmark_load_error(void);

cmark_parser *bos_cmark_parser_new(int options);
void bos_cmark_parser_free(cmark_parser *parser);
/// The extension called `name` attached to `parser`, if cmark-gfm has it; 1 when attached.
int bos_cmark_parser_attach_extension(cmark_parser *parser, const char *name);
void bos_cmark_parser_feed(cmark_parser *parser, const char *buffer, size_t length);
cmark_node *bos_cmark_parser_finish(cmark_parser *parser);

void bos_cmark_node_free(cmark_node *node);
cmark_node *bos_cmark_node_first_child(cmark_node *node);
cmark_node *bos_cmark_node_next(cmark_node *node);
const char *bos_cmark_node_get_type_string(cmark_node *node);
const char *bos_cmark_node_get_literal(cmark_node *node);
const char *bos_cmark_node_get_url(cmark_node *node);
const char *bos_cmark_node_get_fence_info(cmark_node *node);
int bos_cmark_node_get_heading_level(cmark_node *node);
int bos_cmark_node_get_list_type(cmark_node *node);
int bos_cmark_node_get_list_start(cmark_node *node);
int bos_cmark_node_get_start_line(cmark_node *node);
