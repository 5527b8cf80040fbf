#define _GNU_SOURCE

#include "bos_gtk_theme.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <gtk/gtk.h>
#include <link.h>
#include <string.h>
#include <unistd.h>

void bos_gtk_theme_stand_in_register_resource(void);

void bos_gtk_theme_stand_in_install(void) {
    bos_gtk_theme_stand_in_register_resource();
}

gboolean bos_gtk_theme_stand_in_loaded(void) {
    GtkWidget *probe = g_object_ref_sink(gtk_label_new(NULL));
    GdkRGBA color;
    // The stand-in's one rule names this colour; nothing else does.
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    gboolean found =
        gtk_style_context_lookup_color(gtk_widget_get_style_context(probe), "bos_gtk_theme_stand_in", &color);
    G_GNUC_END_IGNORE_DEPRECATIONS
    g_object_unref(probe);
    return found;
}

// Whether `start`..`start + size` (addresses relative to the library's base) lies in one of the
// segments the loader mapped, by the program headers in memory.
static gboolean is_mapped(const ElfW(Ehdr) * mapped, ElfW(Addr) start, size_t size) {
    const ElfW(Phdr) *segments = (const ElfW(Phdr) *)((const char *)mapped + mapped->e_phoff);
    for (int i = 0; i < mapped->e_phnum; i++)
        if (segments[i].p_type == PT_LOAD && start >= segments[i].p_vaddr &&
            start + size <= segments[i].p_vaddr + segments[i].p_memsz)
            return TRUE;
    return FALSE;
}

// The allocated section named `name` of the loaded library `info` describes, as mapped; NULL when
// the file's section headers do not name one, or the file on disk is no longer the one mapped (its
// ELF header differs: the library was replaced since the process started).
static GBytes *mapped_section(const Dl_info *info, const char *name) {
    int fd = open(info->dli_fname, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    GBytes *found = NULL;
    ElfW(Shdr) *sections = NULL;
    char *names = NULL;
    ElfW(Ehdr) header;
    // The first segment maps the file's start, ELF header and program headers included.
    const ElfW(Ehdr) *mapped = info->dli_fbase;
    if (pread(fd, &header, sizeof header, 0) != sizeof header || memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
        memcmp(&header, mapped, sizeof header) != 0 || header.e_shentsize != sizeof(ElfW(Shdr)) ||
        header.e_shstrndx >= header.e_shnum)
        goto done;
    size_t size = sizeof(ElfW(Shdr)) * header.e_shnum;
    sections = g_malloc(size);
    if (pread(fd, sections, size, (off_t)header.e_shoff) != (ssize_t)size) goto done;
    const ElfW(Shdr) *strings = &sections[header.e_shstrndx];
    names = g_malloc(strings->sh_size + 1);
    if (pread(fd, names, strings->sh_size, (off_t)strings->sh_offset) != (ssize_t)strings->sh_size) goto done;
    names[strings->sh_size] = '\0';
    for (int i = 0; i < header.e_shnum && found == NULL; i++) {
        const ElfW(Shdr) *section = &sections[i];
        if (section->sh_name < strings->sh_size && strcmp(names + section->sh_name, name) == 0 &&
            (section->sh_flags & SHF_ALLOC) && section->sh_type == SHT_PROGBITS &&
            is_mapped(mapped, section->sh_addr, section->sh_size))
            found = g_bytes_new_static((const char *)info->dli_fbase + section->sh_addr, section->sh_size);
    }
done:
    g_free(names);
    g_free(sections);
    close(fd);
    return found;
}

static gpointer find_library_resources(gpointer unused) {
    (void)unused;
    Dl_info info;
    if (dladdr((void *)gtk_get_major_version, &info) == 0 || info.dli_fname == NULL) return NULL;
    GBytes *section = mapped_section(&info, ".gresource.gtk");
    if (section == NULL) return NULL;
    GResource *resources = g_resource_new_from_data(section, NULL);
    g_bytes_unref(section);
    return resources;
}

GResource *bos_gtk_theme_library_resources(void) {
    static GOnce once = G_ONCE_INIT;
    return g_once(&once, find_library_resources, NULL);
}

static void drop_icon_theme_criticals(const gchar *domain, GLogLevelFlags level, const gchar *message,
                                      gpointer unused) {
    if (strstr(message, "gtk_icon_theme_get_for_display") != NULL) return;
    g_log_default_handler(domain, level, message, unused);
}

gboolean bos_gtk_theme_parse_without_display(GtkCssProvider *provider, const char *css) {
    GLogLevelFlags fatal = g_log_set_always_fatal(G_LOG_FATAL_MASK);
    g_log_set_always_fatal(fatal);
    if (fatal & G_LOG_LEVEL_CRITICAL) return FALSE;
    guint handler = g_log_set_handler("Gtk", G_LOG_LEVEL_CRITICAL, drop_icon_theme_criticals, NULL);
    gtk_css_provider_load_from_data(provider, css, -1);
    g_log_remove_handler("Gtk", handler);
    return TRUE;
}
