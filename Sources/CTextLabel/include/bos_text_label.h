#pragma once
#include <gtk/gtk.h>

// A wrapping GtkLabel that lays its text out once per change instead of three or four times.
//
// GTK 4.8's GtkLabel measures a wrapping label by laying out copies of its text: at its
// `width-chars` (the minimum), at its `max-width-chars` or unbounded (the natural width), and at
// the width it is asked a height for; the width it is then given is a fourth. Each is a full
// Pango layout — shaping every glyph — and shaping was the largest part of a scrolling frame.
//
// This subclass measures with the label's own layout at one width, the `max-width-chars` cap:
// the natural width is that layout's width when it did not wrap, else the cap; the minimum is
// `width-chars` characters (no layout), at most the natural width. In a reply's column a long
// text is then given exactly the cap, so the height for that width and the drawing reuse the same
// lines (the sizes are GtkLabel's own: gtkkit-checks compares them at every width). Measuring at
// a width other than the one the label is drawn at uses a copy, so what is drawn always matches
// the allocation. Everything else — drawing, selection, links, the context menu, accessibility —
// is GtkLabel's own.
//
// Only wrapping labels measure this way; a label that does not wrap measures as a GtkLabel does.

G_BEGIN_DECLS

/// The type (registered on first use).
GType bos_text_label_get_type(void);

/// A new, empty label of this type (floating, like gtk_label_new).
GtkWidget *bos_text_label_new(void);

/// How many times this label's text was laid out since it was made: its own layout used after a
/// change (a new text, attributes or width), and every copy measured at another width. The
/// checks read it (gtkkit-checks: once to be measured and drawn, once more per change).
guint bos_text_label_layouts(GtkWidget *label);

/// Shows "marker<TAB>text" paragraphs as a list: a tab stop and a hanging indent at the width of
/// `widest_marker` in the label's font plus `gap_pixels`, so each paragraph's text, and its wrapped
/// lines, start at one column. Wrapping labels only; NULL for none.
void bos_text_label_set_list_column(GtkWidget *label, const char *widest_marker, int gap_pixels);

/// The width of `count` characters of the widget's font, in pixels, as GtkLabel reckons it for
/// `width-chars` and `max-width-chars` (the wider of an average character and digit).
int bos_char_width(GtkWidget *widget, int count);

G_END_DECLS
