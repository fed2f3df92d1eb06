#include "cli.h"

#include <string.h>

static const char help[] =
    "usage: retrogym cores [--help]\n"
    "\n"
    "Lists retrogym's built-in cores, then the libretro cores found in the search path ($RETROGYM_CORE_PATH and\n"
    "--core-path folders, retrogym's own core folder, /usr/lib/<multiarch>/libretro, /usr/lib/libretro,\n"
    "RetroArch's ~/.config/retroarch/cores and its Flatpak and Snap folders, an installed stable-retro's cores):\n"
    "name, library version, the systems that prefer it, its extensions, its origin (own, env var, Debian,\n"
    "RetroArch, stable-retro) and its path. Then the systems with no core on this machine and what installs one.\n";

/* The systems that list this core among their preferred cores, comma-separated ("-" when none). */
static void systems_of(const char *core, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < rg_system_count(); i++) {
        const rg_system_info *s = rg_system_at(i);
        for (size_t j = 0; j < s->n_cores; j++)
            if (strcmp(s->cores[j], core) == 0 && used < cap)
                used += (size_t)snprintf(buf + used, cap - used, "%s%s", used ? "," : "", s->name);
    }
    if (!buf[0])
        snprintf(buf, cap, "-");
}

int cmd_cores(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(help, cli_out);
            return 0;
        }
        return cli_fail("cores: unexpected argument \"%s\"", argv[i]);
    }
    rg_core_list *list;
    if (rg_core_list_create(&list) != RG_OK)
        return cli_fail("%s", rg_error_last());
    fprintf(cli_out, "%-28s %-36s %-26s %-22s %-12s %s\n", "core", "library", "systems", "extensions", "origin",
            "path");
    size_t builtin = rg_core_builtin_count();
    for (size_t i = 0; i < builtin + rg_core_list_count(list); i++) {
        rg_core_info info;
        const rg_core_info *c = i < builtin ? (rg_core_builtin_at(i, &info), &info) : rg_core_list_at(list, i - builtin);
        char lib[80];
        snprintf(lib, sizeof lib, "%s %s", c->library_name, c->library_version);
        char systems[128];
        systems_of(c->name, systems, sizeof systems);
        fprintf(cli_out, "%-28s %-36s %-26s %-22s %-12s %s\n", c->name, lib, systems, c->extensions,
                i < builtin ? "own" : rg_core_origin(c->path), c->path);
    }
    /* Systems none of whose cores is here. */
    for (size_t s = 0; s < rg_system_count(); s++) {
        const rg_system_info *sys = rg_system_at(s);
        int found = 0;
        for (size_t j = 0; j < sys->n_cores && !found; j++) {
            for (size_t i = 0; i < builtin + rg_core_list_count(list) && !found; i++) {
                rg_core_info info;
                const rg_core_info *c =
                    i < builtin ? (rg_core_builtin_at(i, &info), &info) : rg_core_list_at(list, i - builtin);
                found = strcmp(c->name, sys->cores[j]) == 0;
            }
        }
        if (!found) {
            char hint[256];
            rg_core_install_hint(sys->cores, sys->n_cores, hint, sizeof hint);
            fprintf(cli_out, "no core for %s on this machine: %s\n", sys->name, hint);
        }
    }
    rg_core_list_free(list);
    return 0;
}
