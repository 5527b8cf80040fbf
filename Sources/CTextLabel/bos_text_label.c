#include "bos_text_label.h"

static GtkWidgetClass *parent_class;
static GQuark layouts_quark, last_layout_quark, last_serial_quark, column_quark, lines_layout_quark, lines_serial_quark;

/* A list's text column: where the text after each marker starts, from the widest marker in the
 * label's font (worked out again when the font changes), plus a gap. */
typedef struct {
    char *widest_marker;
    int gap;
    guint font_serial;
    int column;
} ListColumn;

static void list_column_free(gpointer data) {
    ListColumn *column = data;
    g_free(column->widest_marker);
    g_free(column);
}

void bos_text_label_set_list_column(GtkWidget *label, const char *widest_marker, int gap_pixels) {
    ListColumn *column = NULL;
    if (widest_marker) {
        column = g_new0(ListColumn, 1);
        column->widest_marker = g_strdup(widest_marker);
        column->gap = gap_pixels * PANGO_SCALE;
        column->column = -1;
    }
    g_object_set_qdata_full(G_OBJECT(label), column_quark, column, list_column_free);
    gtk_widget_queue_resize(label);
}

/* Every layout of the label's text gets the list column as its tab stop and hanging indent:
 * GtkLabel makes a new layout when its text changes, so it is set wherever the label's layout is
 * used here (Pango lays nothing out again when both are as they were). */
static void apply_list_column(GtkWidget *widget, PangoLayout *layout) {
    ListColumn *column = g_object_get_qdata(G_OBJECT(widget), column_quark);
    if (column == NULL) return;
    PangoContext *context = pango_layout_get_context(layout);
    if (column->column < 0 || column->font_serial != pango_context_get_serial(context)) {
        PangoLayout *marker = pango_layout_new(context);
        pango_layout_set_text(marker, column->widest_marker, -1);
        int width;
        pango_layout_get_size(marker, &width, NULL);
        g_object_unref(marker);
        column->column = width + column->gap;
        column->font_serial = pango_context_get_serial(context);
    }
    pango_layout_set_indent(layout, -column->column);
    PangoTabArray *tabs = pango_layout_get_tabs(layout);
    gint position = -1;
    if (tabs != NULL && pango_tab_array_get_size(tabs) == 1) pango_tab_array_get_tab(tabs, 0, NULL, &position);
    if (position != column->column) {
        PangoTabArray *stop = pango_tab_array_new(1, FALSE);
        pango_tab_array_set_tab(stop, 0, PANGO_TAB_LEFT, column->column);
        pango_layout_set_tabs(layout, stop);
        pango_tab_array_free(stop);
    }
    if (tabs != NULL) pango_tab_array_free(tabs);
}

static void count_layout(GtkWidget *widget) {
    guint n = GPOINTER_TO_UINT(g_object_get_qdata(G_OBJECT(widget), layouts_quark));
    g_object_set_qdata(G_OBJECT(widget), layouts_quark, GUINT_TO_POINTER(n + 1));
}

/* Notes that `layout` (the label's own) has its lines at its present serial: `keeps_lines` may
 * then read them without laying the text out. */
static void lines_known(GtkWidget *widget, PangoLayout *layout) {
    if (layout != gtk_label_get_layout(GTK_LABEL(widget))) return;
    g_object_set_qdata(G_OBJECT(widget), lines_layout_quark, layout);
    g_object_set_qdata(G_OBJECT(widget), lines_serial_quark, GUINT_TO_POINTER(pango_layout_get_serial(layout)));
}

/* Whether the own layout's lines, laid out at its width, are those a layout at `width` would make,
 * so that it may be used there as it is. Lines are filled greedily: where every line fits a narrower
 * width, or a wider one where no line was wrapped, the text breaks at the same places. Pango shapes
 * the whole text again at any new width, and a reply's text is measured at its natural width before
 * it is given its own, a few pixels narrower (the largest part of the first frame's text layouts). */
static gboolean keeps_lines(GtkWidget *widget, PangoLayout *own, int width) {
    int current = pango_layout_get_width(own);
    if (current < 0 || width < 0 || width == current || pango_layout_get_justify(own)) return FALSE;
    if (g_object_get_qdata(G_OBJECT(widget), lines_layout_quark) != own ||
        GPOINTER_TO_UINT(g_object_get_qdata(G_OBJECT(widget), lines_serial_quark)) != pango_layout_get_serial(own))
        return FALSE;
    if (width > current) return !pango_layout_is_wrapped(own);
    PangoRectangle logical;
    pango_layout_get_extents(own, NULL, &logical);
    return logical.width <= width && logical.x >= 0 && logical.x + logical.width <= current;
}

/* The label's own layout, about to be used at `width`: counted as a layout when anything changed
 * since its last use here (a new text or attributes — GtkLabel may make a new layout for them —
 * or a new width): Pango lays its lines out again at their next use. */
static PangoLayout *own_layout_at(GtkWidget *widget, int width) {
    PangoLayout *own = gtk_label_get_layout(GTK_LABEL(widget));
    apply_list_column(widget, own);
    if (!keeps_lines(widget, own, width)) pango_layout_set_width(own, width);
    gpointer seen = GUINT_TO_POINTER(pango_layout_get_serial(own));
    if (g_object_get_qdata(G_OBJECT(widget), last_layout_quark) != own ||
        g_object_get_qdata(G_OBJECT(widget), last_serial_quark) != seen)
        count_layout(widget);
    g_object_set_qdata(G_OBJECT(widget), last_layout_quark, own);
    g_object_set_qdata(G_OBJECT(widget), last_serial_quark, seen);
    return own;
}

guint bos_text_label_layouts(GtkWidget *label) {
    return GPOINTER_TO_UINT(g_object_get_qdata(G_OBJECT(label), layouts_quark));
}

/* The width of one character, in Pango units, as GtkLabel reckons it for width-chars and
 * max-width-chars: the wider of an average character and an average digit. */
static int char_units(PangoContext *context) {
    PangoFontMetrics *metrics = pango_context_get_metrics(context, NULL, NULL);
    int width = MAX(pango_font_metrics_get_approximate_char_width(metrics),
                    pango_font_metrics_get_approximate_digit_width(metrics));
    pango_font_metrics_unref(metrics);
    return width;
}

int bos_char_width(GtkWidget *widget, int count) {
    return (char_units(gtk_widget_get_pango_context(widget)) * count + PANGO_SCALE - 1) / PANGO_SCALE;
}

/* A layout of the label's text at `width` (Pango units, -1 unbounded), new reference. The label's
 * own layout when that is safe — the label was never allocated, or `width` is the one it is (or
 * will be) drawn at — so measuring and drawing share one layout; otherwise a copy, so the lines
 * drawn always follow the allocation. */
static PangoLayout *layout_at(GtkWidget *widget, int width) {
    PangoLayout *own = gtk_label_get_layout(GTK_LABEL(widget));
    apply_list_column(widget, own);
    int allocated = gtk_widget_get_width(widget);
    if (pango_layout_get_width(own) == width || allocated <= 1 || width == allocated * PANGO_SCALE ||
        keeps_lines(widget, own, width))
        return g_object_ref(own_layout_at(widget, width));
    count_layout(widget);
    PangoLayout *copy = pango_layout_copy(own);
    pango_layout_set_width(copy, width);
    return copy;
}

static void bos_text_label_measure(GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                                   int *natural, int *minimum_baseline, int *natural_baseline) {
    GtkLabel *label = GTK_LABEL(widget);
    if (!gtk_label_get_wrap(label) || gtk_label_get_ellipsize(label) != PANGO_ELLIPSIZE_NONE) {
        parent_class->measure(widget, orientation, for_size, minimum, natural, minimum_baseline, natural_baseline);
        return;
    }
    /* The character width only where it is needed: Pango finds it by shaping a sample text, and the
   * height for a given width (GTK's most frequent question) needs none of it. */
    int max_chars = gtk_label_get_max_width_chars(label);
    gboolean need_unit = orientation == GTK_ORIENTATION_HORIZONTAL || for_size < 0;
    int unit = need_unit ? char_units(pango_layout_get_context(gtk_label_get_layout(label))) : 0;
    int cap = max_chars > 0 && need_unit ? unit * max_chars : -1;

    if (orientation == GTK_ORIENTATION_HORIZONTAL) {
        PangoLayout *layout = layout_at(widget, cap);
        PangoRectangle logical;
        pango_layout_get_extents(layout, NULL, &logical);
        lines_known(widget, layout);
        /* A text that wrapped at the cap is at least that wide unbounded; one that did not is as
       * wide as its longest line. */
        int nat = pango_layout_is_wrapped(layout) ? cap : logical.width;
        int width_chars = gtk_label_get_width_chars(label);
        int min = width_chars >= 0 ? MIN(unit * width_chars, nat) : nat;
        g_object_unref(layout);
        *minimum = PANGO_PIXELS_CEIL(min);
        *natural = PANGO_PIXELS_CEIL(nat);
        *minimum_baseline = *natural_baseline = -1;
        return;
    }

    PangoLayout *layout = layout_at(widget, for_size >= 0 ? for_size * PANGO_SCALE : cap);
    int height;
    pango_layout_get_size(layout, NULL, &height);
    lines_known(widget, layout);
    int baseline = pango_layout_get_baseline(layout);
    g_object_unref(layout);
    *minimum = *natural = PANGO_PIXELS_CEIL(height);
    *minimum_baseline = *natural_baseline = PANGO_PIXELS_CEIL(baseline);
}

/* The layout takes the allocated width (counted here when that is a new one), or keeps its lines
 * when they are the same there. GtkLabel's own allocation would set the width whatever the lines;
 * all else it does is to place its context menu, a popover child. */
static void bos_text_label_size_allocate(GtkWidget *widget, int width, int height, int baseline) {
    GtkLabel *label = GTK_LABEL(widget);
    if (!gtk_label_get_wrap(label)) {
        parent_class->size_allocate(widget, width, height, baseline);
        return;
    }
    own_layout_at(widget, width * PANGO_SCALE);
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child; child = gtk_widget_get_next_sibling(child))
        if (GTK_IS_POPOVER(child)) gtk_popover_present(GTK_POPOVER(child));
}

/* A layout measured at
 * another width after that (without a new allocation) is put back before it is drawn. */
static void bos_text_label_snapshot(GtkWidget *widget, GtkSnapshot *snapshot) {
    GtkLabel *label = GTK_LABEL(widget);
    if (!gtk_label_get_wrap(label)) {
        parent_class->snapshot(widget, snapshot);
        return;
    }
    PangoLayout *own = own_layout_at(widget, gtk_widget_get_width(widget) * PANGO_SCALE);
    parent_class->snapshot(widget, snapshot);
    lines_known(widget, own);
}

static void bos_text_label_class_init(gpointer klass, gpointer data) {
    (void)data;
    parent_class = g_type_class_peek_parent(klass);
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
    widget_class->measure = bos_text_label_measure;
    widget_class->snapshot = bos_text_label_snapshot;
    widget_class->size_allocate = bos_text_label_size_allocate;
}

GType bos_text_label_get_type(void) {
    static gsize type = 0;
    if (g_once_init_enter(&type)) {
        /* GtkLabel's structs are private: the subclass adds no fields, so it takes the parent's sizes. */
        GTypeQuery query;
        g_type_query(GTK_TYPE_LABEL, &query);
        layouts_quark = g_quark_from_static_string("bos-text-label-layouts");
        last_layout_quark = g_quark_from_static_string("bos-text-label-last-layout");
        last_serial_quark = g_quark_from_static_string("bos-text-label-last-serial");
        column_quark = g_quark_from_static_string("bos-text-label-list-column");
        lines_layout_quark = g_quark_from_static_string("bos-text-label-lines-layout");
        lines_serial_quark = g_quark_from_static_string("bos-text-label-lines-serial");
        GType t =
            g_type_register_static_simple(GTK_TYPE_LABEL, g_intern_static_string("BosTextLabel"), query.class_size,
                                          bos_text_label_class_init, query.instance_size, NULL, 0);
        g_once_init_leave(&type, t);
    }
    return type;
}

GtkWidget *bos_text_label_new(void) {
    return g_object_new(bos_text_label_get_type(), NULL);
}
