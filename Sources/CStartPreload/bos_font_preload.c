#define _GNU_SOURCE
#include "bos_font_preload.h"
#include <sys/resource.h>
#include <unistd.h>
#include <pango/pangocairo.h>
#include <stdio.h>
#include <string.h>

char *bos_font_setup_describe_context(GtkWidget *widget) {
    PangoContext *context = gtk_widget_get_pango_context(widget);
    const cairo_font_options_t *options = pango_cairo_context_get_font_options(context);
    int antialias = 0, hint_style = 0, hint_metrics = 0, subpixel = 0;
    if (options) {
        antialias = cairo_font_options_get_antialias(options);
        hint_style = cairo_font_options_get_hint_style(options);
        hint_metrics = cairo_font_options_get_hint_metrics(options);
        subpixel = cairo_font_options_get_subpixel_order(options);
    }
    char resolution[G_ASCII_DTOSTR_BUF_SIZE];
    g_ascii_dtostr(resolution, sizeof resolution, pango_cairo_context_get_resolution(context));
    PangoLanguage *language = pango_context_get_language(context);
    return g_strdup_printf("%d %d %d %d %s %s", antialias, hint_style, hint_metrics, subpixel, resolution,
                           language ? pango_language_to_string(language) : "-");
}

/* A font description, how many characters of the described labels it sets, and which. */
typedef struct {
    char *text;
    glong characters;
    guint order;
    GString *set;
} FontUse;

/* Adds the characters of `text` from byte `start` to `end` that `set` lacks (controls left out). */
static void add_characters(GString *set, const char *text, glong start, glong end) {
    for (const char *p = text + start; p < text + end && *p && set->len < BOS_FONT_CHARACTERS_MAX;
         p = g_utf8_next_char(p)) {
        gunichar c = g_utf8_get_char(p);
        if (g_unichar_iscntrl(c)) continue;
        char encoded[8];
        encoded[g_unichar_to_utf8(c, encoded)] = 0;
        /* A whole UTF-8 sequence only matches at a character boundary. */
        if (!strstr(set->str, encoded)) g_string_append(set, encoded);
    }
}

/* `count` characters set in the font, those of `text` from byte `start` to `end`. */
static void add_font(GArray *fonts, const PangoFontDescription *description, glong count, const char *text, glong start,
                     glong end) {
    char *name = pango_font_description_to_string(description);
    FontUse *use = NULL;
    for (guint i = 0; i < fonts->len && !use; i++)
        if (strcmp(g_array_index(fonts, FontUse, i).text, name) == 0) use = &g_array_index(fonts, FontUse, i);
    if (use) {
        g_free(name);
    } else {
        FontUse fresh = {name, 0, fonts->len, g_string_new(NULL)};
        g_array_append_val(fonts, fresh);
        use = &g_array_index(fonts, FontUse, fonts->len - 1);
    }
    use->characters += count;
    add_characters(use->set, text, start, end);
}

/* The label's font with each font-changing attribute of its text merged in, as Pango itemizes it. */
static void add_label_fonts(GtkWidget *label, GArray *fonts) {
    const PangoFontDescription *base = pango_context_get_font_description(gtk_widget_get_pango_context(label));
    const char *text = gtk_label_get_text(GTK_LABEL(label));
    glong length = (glong)strlen(text), inOtherFonts = 0;
    PangoAttrList *attributes = pango_layout_get_attributes(gtk_label_get_layout(GTK_LABEL(label)));
    if (!attributes) {
        add_font(fonts, base, g_utf8_strlen(text, -1), text, 0, length);
        return;
    }
    GSList *list = pango_attr_list_get_attributes(attributes);
    for (GSList *item = list; item; item = item->next) {
        PangoAttribute *attribute = item->data;
        PangoFontDescription *description = pango_font_description_copy(base);
        gboolean changes = TRUE;
        switch (attribute->klass->type) {
        case PANGO_ATTR_WEIGHT:
            pango_font_description_set_weight(description, ((PangoAttrInt *)attribute)->value);
            break;
        case PANGO_ATTR_STYLE:
            pango_font_description_set_style(description, ((PangoAttrInt *)attribute)->value);
            break;
        case PANGO_ATTR_FAMILY:
            pango_font_description_set_family(description, ((PangoAttrString *)attribute)->value);
            break;
        case PANGO_ATTR_FONT_DESC:
            pango_font_description_merge(description, ((PangoAttrFontDesc *)attribute)->desc, TRUE);
            break;
        default:
            changes = FALSE;
            break;
        }
        if (changes) {
            /* The attribute's span in bytes of the text: near enough to characters to rank fonts by. */
            glong start = MIN((glong)attribute->start_index, length), end = MIN((glong)attribute->end_index, length);
            add_font(fonts, description, MAX(end - start, 0), text, start, end);
            inOtherFonts += MAX(end - start, 0);
        }
        pango_font_description_free(description);
    }
    g_slist_free_full(list, (GDestroyNotify)pango_attribute_destroy);
    /* The label's own font sets what no attribute changed (overlapping attributes: at least none);
     * all of the text's characters are kept for it, a few more than it sets. */
    add_font(fonts, base, MAX(length - inOtherFonts, 0), text, 0, length);
}

static void walk(GtkWidget *widget, GArray *fonts) {
    if (!gtk_widget_get_mapped(widget)) return;
    if (GTK_IS_LABEL(widget)) add_label_fonts(widget, fonts);
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child; child = gtk_widget_get_next_sibling(child))
        walk(child, fonts);
}

/* Most characters first; equal counts keep the order they were met in (g_array_sort is not stable). */
static gint by_use(gconstpointer a, gconstpointer b) {
    const FontUse *x = a, *y = b;
    if (x->characters != y->characters) return x->characters > y->characters ? -1 : 1;
    return x->order < y->order ? -1 : (x->order > y->order ? 1 : 0);
}

char **bos_font_setup_describe_fonts(GtkWidget *root, int limit, char ***characters) {
    GArray *fonts = g_array_new(FALSE, FALSE, sizeof(FontUse));
    walk(root, fonts);
    g_array_sort(fonts, by_use);
    GPtrArray *names = g_ptr_array_new(), *sets = g_ptr_array_new();
    for (guint i = 0; i < fonts->len; i++) {
        FontUse *use = &g_array_index(fonts, FontUse, i);
        if (names->len < (guint)limit) {
            g_ptr_array_add(names, use->text);
            g_ptr_array_add(sets, g_string_free(use->set, FALSE));
        } else {
            g_free(use->text);
            g_string_free(use->set, TRUE);
        }
    }
    g_array_free(fonts, TRUE);
    g_ptr_array_add(names, NULL);
    g_ptr_array_add(sets, NULL);
    *characters = (char **)g_ptr_array_free(sets, FALSE);
    return (char **)g_ptr_array_free(names, FALSE);
}

/* The settings GTK gave its contexts, as bos_font_setup_describe_context wrote them. */
static void apply_context(PangoContext *context, const char *line) {
    int antialias, hint_style, hint_metrics, subpixel;
    char resolution[32], language[64];
    if (!line || sscanf(line, "%d %d %d %d %31s %63s", &antialias, &hint_style, &hint_metrics, &subpixel, resolution,
                        language) != 6)
        return;
    cairo_font_options_t *options = cairo_font_options_create();
    if (antialias >= CAIRO_ANTIALIAS_DEFAULT && antialias <= CAIRO_ANTIALIAS_BEST)
        cairo_font_options_set_antialias(options, antialias);
    if (hint_style >= CAIRO_HINT_STYLE_DEFAULT && hint_style <= CAIRO_HINT_STYLE_FULL)
        cairo_font_options_set_hint_style(options, hint_style);
    if (hint_metrics >= CAIRO_HINT_METRICS_DEFAULT && hint_metrics <= CAIRO_HINT_METRICS_ON)
        cairo_font_options_set_hint_metrics(options, hint_metrics);
    if (subpixel >= CAIRO_SUBPIXEL_ORDER_DEFAULT && subpixel <= CAIRO_SUBPIXEL_ORDER_VBGR)
        cairo_font_options_set_subpixel_order(options, subpixel);
    pango_cairo_context_set_font_options(context, options);
    cairo_font_options_destroy(options);
    double dpi = g_ascii_strtod(resolution, NULL);
    if (dpi > 0 && dpi < 10000) pango_cairo_context_set_resolution(context, dpi);
    if (strcmp(language, "-") != 0) pango_context_set_language(context, pango_language_from_string(language));
}

PangoFontMap *bos_font_preload_load(const char *context_line, const char *const *fonts, const char *const *characters,
                                    int count) {
    /* Below the threads GTK's start needs (at equal priority the X server, answering GTK's set-up,
     * waited for a core), but not SCHED_IDLE: on a busy machine that starved the loading for seconds,
     * and the first frame with it, which needs locks the loading holds in cairo and fontconfig even
     * when it does not wait for the loading (`FontPreload.finish`). Nice 10 applies to this thread only. */
    setpriority(PRIO_PROCESS, (id_t)gettid(), 10);
    PangoFontMap *map = pango_cairo_font_map_new();
    PangoContext *context = pango_font_map_create_context(map);
    apply_context(context, context_line);
    /* Each font's characters laid out and drawn: cairo keeps each glyph it rasterized with its
   * scaled font, and the first frame's text then draws with those. Exactly the glyphs the last
   * first frame drew, so the preload costs no memory the frame would not (a kept glyph is ~1 KB:
   * the same 130 characters in each of eight fonts grew the idle peak 1.4 MiB). cairo rasterizes
   * only the glyphs that land on the surface, so the surface fits the text (on a 1x1 surface the
   * first frame rasterized most of them on the main thread). */
    PangoLayout *layout = pango_layout_new(context);
    for (int i = 0; i < count; i++) {
        if (!characters[i] || !*characters[i]) continue;
        PangoFontDescription *description = pango_font_description_from_string(fonts[i]);
        pango_layout_set_font_description(layout, description);
        pango_font_description_free(description);
        pango_layout_set_text(layout, characters[i], -1);
        int width, height;
        pango_layout_get_pixel_size(layout, &width, &height);
        cairo_surface_t *surface =
            cairo_image_surface_create(CAIRO_FORMAT_A8, CLAMP(width, 1, 16384), CLAMP(height, 1, 512));
        cairo_t *cr = cairo_create(surface);
        pango_cairo_show_layout(cr, layout);
        cairo_destroy(cr);
        cairo_surface_destroy(surface);
    }
    g_object_unref(layout);
    g_object_unref(context);
    return map;
}

void bos_font_preload_make_default(PangoFontMap *map) {
    pango_cairo_font_map_set_default(PANGO_CAIRO_FONT_MAP(map));
    g_object_unref(map);
}
