#define _GNU_SOURCE
#include "bos_font_preload.h"
#include <sched.h>
#include <pango/pangocairo.h>
#include <stdio.h>
#include <string.h>

char *
bos_font_setup_describe_context (GtkWidget *widget)
{
  PangoContext *context = gtk_widget_get_pango_context (widget);
  const cairo_font_options_t *options = pango_cairo_context_get_font_options (context);
  int antialias = 0, hint_style = 0, hint_metrics = 0, subpixel = 0;
  if (options)
    {
      antialias = cairo_font_options_get_antialias (options);
      hint_style = cairo_font_options_get_hint_style (options);
      hint_metrics = cairo_font_options_get_hint_metrics (options);
      subpixel = cairo_font_options_get_subpixel_order (options);
    }
  char resolution[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_dtostr (resolution, sizeof resolution, pango_cairo_context_get_resolution (context));
  PangoLanguage *language = pango_context_get_language (context);
  return g_strdup_printf ("%d %d %d %d %s %s", antialias, hint_style, hint_metrics, subpixel, resolution,
                          language ? pango_language_to_string (language) : "-");
}

static void
add_font (GPtrArray *fonts, const PangoFontDescription *description, int limit)
{
  if (fonts->len >= (guint) limit)
    return;
  char *text = pango_font_description_to_string (description);
  for (guint i = 0; i < fonts->len; i++)
    if (strcmp (fonts->pdata[i], text) == 0)
      {
        g_free (text);
        return;
      }
  g_ptr_array_add (fonts, text);
}

/* The label's font with each font-changing attribute of its text merged in, as Pango itemizes it. */
static void
add_label_fonts (GtkWidget *label, GPtrArray *fonts, int limit)
{
  const PangoFontDescription *base = pango_context_get_font_description (gtk_widget_get_pango_context (label));
  add_font (fonts, base, limit);
  PangoAttrList *attributes = pango_layout_get_attributes (gtk_label_get_layout (GTK_LABEL (label)));
  if (!attributes)
    return;
  GSList *list = pango_attr_list_get_attributes (attributes);
  for (GSList *item = list; item; item = item->next)
    {
      PangoAttribute *attribute = item->data;
      PangoFontDescription *description = pango_font_description_copy (base);
      gboolean changes = TRUE;
      switch (attribute->klass->type)
        {
        case PANGO_ATTR_WEIGHT: pango_font_description_set_weight (description, ((PangoAttrInt *) attribute)->value); break;
        case PANGO_ATTR_STYLE: pango_font_description_set_style (description, ((PangoAttrInt *) attribute)->value); break;
        case PANGO_ATTR_FAMILY: pango_font_description_set_family (description, ((PangoAttrString *) attribute)->value); break;
        case PANGO_ATTR_FONT_DESC: pango_font_description_merge (description, ((PangoAttrFontDesc *) attribute)->desc, TRUE); break;
        default: changes = FALSE; break;
        }
      if (changes)
        add_font (fonts, description, limit);
      pango_font_description_free (description);
    }
  g_slist_free_full (list, (GDestroyNotify) pango_attribute_destroy);
}

static void
walk (GtkWidget *widget, GPtrArray *fonts, int limit)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if (GTK_IS_LABEL (widget))
    add_label_fonts (widget, fonts, limit);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    walk (child, fonts, limit);
}

char **
bos_font_setup_describe_fonts (GtkWidget *root, int limit)
{
  GPtrArray *fonts = g_ptr_array_new ();
  walk (root, fonts, limit);
  g_ptr_array_add (fonts, NULL);
  return (char **) g_ptr_array_free (fonts, FALSE);
}

/* The settings GTK gave its contexts, as bos_font_setup_describe_context wrote them. */
static void
apply_context (PangoContext *context, const char *line)
{
  int antialias, hint_style, hint_metrics, subpixel;
  char resolution[32], language[64];
  if (!line || sscanf (line, "%d %d %d %d %31s %63s", &antialias, &hint_style, &hint_metrics, &subpixel, resolution, language) != 6)
    return;
  cairo_font_options_t *options = cairo_font_options_create ();
  if (antialias >= CAIRO_ANTIALIAS_DEFAULT && antialias <= CAIRO_ANTIALIAS_BEST)
    cairo_font_options_set_antialias (options, antialias);
  if (hint_style >= CAIRO_HINT_STYLE_DEFAULT && hint_style <= CAIRO_HINT_STYLE_FULL)
    cairo_font_options_set_hint_style (options, hint_style);
  if (hint_metrics >= CAIRO_HINT_METRICS_DEFAULT && hint_metrics <= CAIRO_HINT_METRICS_ON)
    cairo_font_options_set_hint_metrics (options, hint_metrics);
  if (subpixel >= CAIRO_SUBPIXEL_ORDER_DEFAULT && subpixel <= CAIRO_SUBPIXEL_ORDER_VBGR)
    cairo_font_options_set_subpixel_order (options, subpixel);
  pango_cairo_context_set_font_options (context, options);
  cairo_font_options_destroy (options);
  double dpi = g_ascii_strtod (resolution, NULL);
  if (dpi > 0 && dpi < 10000)
    pango_cairo_context_set_resolution (context, dpi);
  if (strcmp (language, "-") != 0)
    pango_context_set_language (context, pango_language_from_string (language));
}

PangoFontMap *
bos_font_preload_load (const char *context_line, const char *const *fonts, int count, const char *sample)
{
  /* Only the CPU nobody else wants: on two cores, at normal priority the loading slowed GTK's start
   * as much as it saved — the X server, answering GTK's set-up, waited for a core
   * (perf sched: the main thread's waits +9 ms). It runs on the loading thread only. */
  struct sched_param idle = { 0 };
  sched_setscheduler (0, SCHED_IDLE, &idle);
  PangoFontMap *map = pango_cairo_font_map_new ();
  PangoContext *context = pango_font_map_create_context (map);
  apply_context (context, context_line);
  /* Laid out, then drawn: cairo keeps each glyph it rasterized with its scaled font, which the
   * first frame's text then draws with. It rasterizes only the glyphs that land on the surface, so
   * the surface fits the widest sample (on a 1x1 surface, ~20 of a font's 130 glyphs were drawn
   * and the first frame rasterized the rest: ~800 FreeType loads on the main thread). */
  PangoLayout **layouts = g_new0 (PangoLayout *, count > 0 ? count : 1);
  int width = 1, height = 1;
  for (int i = 0; i < count; i++)
    {
      layouts[i] = pango_layout_new (context);
      pango_layout_set_text (layouts[i], sample, -1);
      PangoFontDescription *description = pango_font_description_from_string (fonts[i]);
      pango_layout_set_font_description (layouts[i], description);
      pango_font_description_free (description);
      int w, h;
      pango_layout_get_pixel_size (layouts[i], &w, &h);
      width = MAX (width, w);
      height = MAX (height, h);
    }
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_A8, MIN (width, 8192), MIN (height, 512));
  cairo_t *cr = cairo_create (surface);
  for (int i = 0; i < count; i++)
    {
      cairo_move_to (cr, 0, 0);
      pango_cairo_show_layout (cr, layouts[i]);
      g_object_unref (layouts[i]);
    }
  g_free (layouts);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  g_object_unref (context);
  return map;
}

void
bos_font_preload_make_default (PangoFontMap *map)
{
  pango_cairo_font_map_set_default (PANGO_CAIRO_FONT_MAP (map));
  g_object_unref (map);
}
