#define _GNU_SOURCE
#include "bos_font_preload.h"
#include <sched.h>
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

/* A font description and how many characters of the described labels it sets. */
typedef struct {
    char *text;
    glong characters;
    guint order;
} FontUse;

static void add_font(GArray *fonts, const PangoFontDescription *description, glong characters) {
    char *text = pango_font_description_to_string(description);
    for (guint i = 0; i < fonts->len; i++) {
        FontUse *use = &g_array_index(fonts, FontUse, i);
        if (strcmp(use->text, text) == 0) {
            use->characters += characters;
            g_free(text);
            return;
        }
    }
    FontUse use = {text, characters, fonts->len};
    g_array_append_val(fonts, use);
}

/* The label's font with each font-changing attribute of its text merged in, as Pango itemizes it. */
static void add_label_fonts(GtkWidget *label, GArray *fonts) {
    const PangoFontDescription *base = pango_context_get_font_description(gtk_widget_get_pango_context(label));
    const char *text = gtk_label_get_text(GTK_LABEL(label));
    glong length = (glong)strlen(text), inOtherFonts = 0;
    PangoAttrList *attributes = pango_layout_get_attributes(gtk_label_get_layout(GTK_LABEL(label)));
    if (!attributes) {
        add_font(fonts, base, g_utf8_strlen(text, -1));
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
            add_font(fonts, description, MAX(end - start, 0));
            inOtherFonts += MAX(end - start, 0);
        }
        pango_font_description_free(description);
    }
    g_slist_free_full(list, (GDestroyNotify)pango_attribute_destroy);
    /* The label's own font sets what no attribute changed (overlapping attributes: at least none). */
    add_font(fonts, base, MAX(length - inOtherFonts, 0));
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

char **bos_font_setup_describe_fonts(GtkWidget *root, int limit) {
    GArray *fonts = g_array_new(FALSE, FALSE, sizeof(FontUse));
    walk(root, fonts);
    g_array_sort(fonts, by_use);
    GPtrArray *names = g_ptr_array_new();
    for (guint i = 0; i < fonts->len; i++) {
        FontUse *use = &g_array_index(fonts, FontUse, i);
        if (names->len < (guint)limit)
            g_ptr_array_add(names, use->text);
        else
            g_free(use->text);
    }
    g_array_free(fonts, TRUE);
    g_ptr_array_add(names, NULL);
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

PangoFontMap *bos_font_preload_load(const char *context_line, const char *const *fonts, int count, const char *sample) {
    /* Only the CPU nobody else wants: on two cores, at normal priority the loading slowed GTK's start
   * as much as it saved — the X server, answering GTK's set-up, waited for a core. It runs on the
   * loading thread only. */
    struct sched_param idle = {0};
    sched_setscheduler(0, SCHED_IDLE, &idle);
    PangoFontMap *map = pango_cairo_font_map_new();
    PangoContext *context = pango_font_map_create_context(map);
    apply_context(context, context_line);
    /* Laid out in every font, and drawn: cairo keeps each glyph it rasterized with its scaled font,
   * and the first frame's text then draws with those. A kept glyph costs ~1 KB, so the whole sample
   * is drawn only in the first font, the one most of the last first frame's text was in (797 of its
   * 1,063 glyphs), and the lowercase letters alone in the others (drawing all 130 glyphs in all
   * eight fonts grew the idle peak 1.4 MiB). cairo rasterizes only the glyphs that land on the
   * surface, so the surface fits the text (on a 1x1 surface, ~20 of a font's 130 glyphs were drawn,
   * and the first frame rasterized the rest: 263 FreeType loads on the main thread). */
    GString *lowercase = g_string_new(NULL);
    for (const char *c = sample; *c; c++)
        if (*c >= 'a' && *c <= 'z') g_string_append_c(lowercase, *c);
    PangoLayout *layout = pango_layout_new(context);
    cairo_surface_t *surface = NULL;
    cairo_t *cr = NULL;
    for (int i = 0; i < count; i++) {
        PangoFontDescription *description = pango_font_description_from_string(fonts[i]);
        pango_layout_set_font_description(layout, description);
        pango_font_description_free(description);
        pango_layout_set_text(layout, sample, -1);
        int width, height;
        pango_layout_get_pixel_size(layout, &width, &height);
        if (i == 0) {
            /* The first font's sample is the widest text drawn, and wide enough for the others'. */
            surface = cairo_image_surface_create(CAIRO_FORMAT_A8, CLAMP(width, 1, 8192), CLAMP(height * 2, 1, 512));
            cr = cairo_create(surface);
        } else
            pango_layout_set_text(layout, lowercase->str, -1);
        cairo_move_to(cr, 0, 0);
        pango_cairo_show_layout(cr, layout);
    }
    if (cr) {
        cairo_destroy(cr);
        cairo_surface_destroy(surface);
    }
    g_object_unref(layout);
    g_string_free(lowercase, TRUE);
    g_object_unref(context);
    return map;
}

void bos_font_preload_make_default(PangoFontMap *map) {
    pango_cairo_font_map_set_default(PANGO_CAIRO_FONT_MAP(map));
    g_object_unref(map);
}
