/* Finding cores by name and listing the cores installed (public API of core.h). */
#define _GNU_SOURCE
#include "retrogym/core.h"

#include "lr_internal.h"

#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Where our own libretro cores are, relative to the folder of the file holding the library's code (see
 * rg__own_dir): from an installed libretrogym.so and from an installed executable (both given by the build,
 * CMakeLists.txt), then beside it or one folder up (the build tree, the Python package). */
#ifndef RG_CORE_DIR_FROM_LIB
#define RG_CORE_DIR_FROM_LIB "retrogym/cores"
#endif
#ifndef RG_CORE_DIR_FROM_BIN
#define RG_CORE_DIR_FROM_BIN "../lib/retrogym/cores"
#endif
static const char *const own_core_dirs[] = {RG_CORE_DIR_FROM_LIB, RG_CORE_DIR_FROM_BIN, "cores", "../cores"};

/* Debian's multiarch folder of libretro cores for the target the library was built for
 * (/usr/lib/<RG_MULTIARCH>/libretro, e.g. x86_64-linux-gnu); left out where the build knows none. */
#ifdef RG_MULTIARCH
#define DEBIAN_MULTIARCH_CORES "/usr/lib/" RG_MULTIARCH "/libretro"
#endif

#define MAX_DIRS 40
#define SUFFIX "_libretro.so"

/* Where each folder of the search path comes from (rg_core_origin). */
typedef struct search_path {
    char *dirs[MAX_DIRS];
    const char *origin[MAX_DIRS];
    size_t n;
} search_path;

static void path_add(search_path *sp, const char *dir, size_t len, const char *origin)
{
    if (len == 0 || sp->n == MAX_DIRS)
        return;
    char *d = malloc(len + 1);
    if (!d)
        return;
    memcpy(d, dir, len);
    d[len] = '\0';
    sp->origin[sp->n] = origin;
    sp->dirs[sp->n++] = d;
}

static void path_add_home(search_path *sp, const char *home, const char *rel, const char *origin)
{
    char *d = rg__asprintf("%s/%s", home, rel);
    if (d) {
        path_add(sp, d, strlen(d), origin);
        free(d);
    }
}

/* $RETROGYM_CORE_PATH, our own folder, Debian's (multiarch, then /usr/lib/libretro), RetroArch's (user, Flatpak,
 * Snap), stable-retro's. */
static void path_build(search_path *sp)
{
    sp->n = 0;
    const char *env = getenv("RETROGYM_CORE_PATH");
    while (env && *env) {
        size_t len = strcspn(env, ":");
        path_add(sp, env, len, "env var");
        env += len + (env[len] == ':');
    }
    char *own = rg__own_dir(own_core_dirs, sizeof own_core_dirs / sizeof own_core_dirs[0]);
    if (own) {
        path_add(sp, own, strlen(own), "own");
        free(own);
    }
#ifdef DEBIAN_MULTIARCH_CORES
    path_add(sp, DEBIAN_MULTIARCH_CORES, strlen(DEBIAN_MULTIARCH_CORES), "Debian");
#endif
    path_add(sp, "/usr/lib/libretro", strlen("/usr/lib/libretro"), "Debian");
    const char *home = getenv("HOME");
    if (home && *home) {
        path_add_home(sp, home, ".config/retroarch/cores", "RetroArch");
        path_add_home(sp, home, ".var/app/org.libretro.RetroArch/config/retroarch/cores", "RetroArch");
        path_add_home(sp, home, "snap/retroarch/current/.config/retroarch/cores", "RetroArch");
    }
    const char *sr = getenv("RETROGYM_STABLE_RETRO");
    if (sr && *sr)
        path_add_home(sp, sr, "cores", "stable-retro");
}

static void path_free(search_path *sp)
{
    for (size_t i = 0; i < sp->n; i++)
        free(sp->dirs[i]);
    sp->n = 0;
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int looks_like_path(const char *s)
{
    size_t n = strlen(s);
    return strchr(s, '/') != NULL || (n > 3 && strcmp(s + n - 3, ".so") == 0);
}

int rg_core_resolve(const char *name, char *buf, size_t cap)
{
    if (!name || !buf || cap == 0 || !*name)
        return rg__error(RG_EINVAL, "rg_core_resolve: empty core name");
    if (looks_like_path(name)) {
        if (!is_file(name))
            return rg__error(RG_ENOTFOUND, "core file %s does not exist", name);
        if ((size_t)snprintf(buf, cap, "%s", name) >= cap)
            return rg__error(RG_EBUFFER, "core path too long for the buffer");
        return RG_OK;
    }
    search_path sp;
    path_build(&sp);
    char searched[4096] = "";
    for (size_t i = 0; i < sp.n; i++) {
        char *p = rg__asprintf("%s/%s" SUFFIX, sp.dirs[i], name);
        if (p && is_file(p)) {
            int fits = (size_t)snprintf(buf, cap, "%s", p) < cap;
            free(p);
            path_free(&sp);
            return fits ? RG_OK : rg__error(RG_EBUFFER, "core path too long for the buffer");
        }
        free(p);
        size_t used = strlen(searched);
        snprintf(searched + used, sizeof searched - used, "%s%s", used ? ":" : "", sp.dirs[i]);
    }
    path_free(&sp);
    return rg__error(RG_ENOTFOUND, "core \"%s\" not found (looked for %s" SUFFIX " in %s)", name, name, searched);
}

struct rg_core_list {
    rg_core_info *items;
    size_t count, cap;
};

static int list_contains(const rg_core_list *l, const char *name)
{
    for (size_t i = 0; i < l->count; i++)
        if (strcmp(l->items[i].name, name) == 0)
            return 1;
    return 0;
}

static int list_add_probe(rg_core_list *l, const char *name, const char *path)
{
    struct retro_system_info info;
    void *dl;
    int rc = rg__lr_api_probe(path, &info, &dl);
    if (rc != RG_OK)
        return rc;
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        rg_core_info *items = realloc(l->items, cap * sizeof *items);
        if (!items) {
            dlclose(dl);
            return rg__error(RG_ENOMEM, "out of memory");
        }
        l->items = items;
        l->cap = cap;
    }
    rg_core_info *ci = &l->items[l->count];
    ci->name = rg__asprintf("%s", name);
    ci->path = rg__asprintf("%s", path);
    ci->library_name = rg__asprintf("%s", info.library_name ? info.library_name : "");
    ci->library_version = rg__asprintf("%s", info.library_version ? info.library_version : "");
    ci->extensions = rg__asprintf("%s", info.valid_extensions ? info.valid_extensions : "");
    ci->need_fullpath = info.need_fullpath;
    dlclose(dl);
    if (!ci->name || !ci->path || !ci->library_name || !ci->library_version || !ci->extensions) {
        free((void *)ci->name), free((void *)ci->path), free((void *)ci->library_name);
        free((void *)ci->library_version), free((void *)ci->extensions);
        return rg__error(RG_ENOMEM, "out of memory");
    }
    l->count++;
    return RG_OK;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const rg_core_info *)a)->name, ((const rg_core_info *)b)->name);
}

int rg_core_list_create(rg_core_list **out)
{
    if (!out)
        return rg__error(RG_EINVAL, "rg_core_list_create: NULL argument");
    rg_core_list *l = calloc(1, sizeof *l);
    if (!l)
        return rg__error(RG_ENOMEM, "out of memory");
    search_path sp;
    path_build(&sp);
    for (size_t i = 0; i < sp.n; i++) {
        DIR *d = opendir(sp.dirs[i]);
        if (!d)
            continue;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            size_t n = strlen(e->d_name), sl = strlen(SUFFIX);
            if (n <= sl || strcmp(e->d_name + n - sl, SUFFIX) != 0)
                continue;
            char name[256];
            if (n - sl >= sizeof name)
                continue;
            memcpy(name, e->d_name, n - sl);
            name[n - sl] = '\0';
            if (list_contains(l, name))
                continue;
            char *path = rg__asprintf("%s/%s", sp.dirs[i], e->d_name);
            if (path && is_file(path) && list_add_probe(l, name, path) == RG_ENOMEM) {
                free(path);
                closedir(d);
                path_free(&sp);
                rg_core_list_free(l);
                return RG_ENOMEM;
            }
            free(path);
        }
        closedir(d);
    }
    path_free(&sp);
    if (l->count > 1)
        qsort(l->items, l->count, sizeof *l->items, by_name);
    *out = l;
    return RG_OK;
}

int rg_core_describe(rg_core_list **out, const char *name_or_path)
{
    if (!out)
        return rg__error(RG_EINVAL, "rg_core_describe: NULL argument");
    *out = NULL;
    char path[4096];
    int rc = rg_core_resolve(name_or_path, path, sizeof path);
    if (rc != RG_OK)
        return rc;
    rg_core_list *l = calloc(1, sizeof *l);
    if (!l)
        return rg__error(RG_ENOMEM, "out of memory");
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > strlen(SUFFIX) && strcmp(base + n - strlen(SUFFIX), SUFFIX) == 0)
        n -= strlen(SUFFIX);
    char *name = malloc(n + 1);
    if (!name) {
        rg_core_list_free(l);
        return rg__error(RG_ENOMEM, "out of memory");
    }
    memcpy(name, base, n);
    name[n] = '\0';
    rc = list_add_probe(l, name, path);
    free(name);
    if (rc != RG_OK) {
        rg_core_list_free(l);
        return rc;
    }
    *out = l;
    return RG_OK;
}

size_t rg_core_list_count(const rg_core_list *l)
{
    return l ? l->count : 0;
}

const rg_core_info *rg_core_list_at(const rg_core_list *l, size_t i)
{
    return l && i < l->count ? &l->items[i] : NULL;
}

void rg_core_list_free(rg_core_list *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->count; i++) {
        free((void *)l->items[i].name);
        free((void *)l->items[i].path);
        free((void *)l->items[i].library_name);
        free((void *)l->items[i].library_version);
        free((void *)l->items[i].extensions);
    }
    free(l->items);
    free(l);
}

const char *rg_core_origin(const char *path)
{
    if (!path || !*path)
        return "?";
    if (path[0] != '/')
        return "built in";
    const char *slash = strrchr(path, '/');
    size_t dir_len = (size_t)(slash - path);
    search_path sp;
    path_build(&sp);
    const char *origin = "path";
    for (size_t i = 0; i < sp.n; i++) {
        size_t n = strlen(sp.dirs[i]);
        while (n > 1 && sp.dirs[i][n - 1] == '/')
            n--;
        if (n == dir_len && strncmp(sp.dirs[i], path, n) == 0) {
            origin = sp.origin[i];
            break;
        }
    }
    path_free(&sp);
    return origin;
}

/* Debian's package of a core, or NULL. */
static const char *debian_package(const char *core)
{
    static const struct {
        const char *core, *package;
    } table[] = {
        {"nestopia", "libretro-nestopia"},
        {"gambatte", "libretro-gambatte"},
        {"mgba", "libretro-mgba"},
        {"mednafen_pce_fast", "libretro-beetle-pce-fast"},
        {"bsnes_mercury_performance", "libretro-bsnes-mercury-performance"},
        {"bsnes_mercury_balanced", "libretro-bsnes-mercury-balanced"},
        {"bsnes_mercury_accuracy", "libretro-bsnes-mercury-accuracy"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].core, core) == 0)
            return table[i].package;
    return NULL;
}

/* Whether stable-retro's wheel ships a core of this name (stable-retro 1.0.1's cores folder). */
static int stable_retro_ships(const char *core)
{
    static const char *const shipped[] = {"fceumm", "genesis_plus_gx", "snes9x", "stella", "gambatte", "mgba",
                                          "mednafen_pce_fast", "picodrive", "fbneo", "parallel_n64", "melonds",
                                          "mednafen_saturn"};
    for (size_t i = 0; i < sizeof shipped / sizeof shipped[0]; i++)
        if (strcmp(shipped[i], core) == 0)
            return 1;
    return 0;
}

int rg_core_install_hint(const char *const *cores, size_t n, char *buf, size_t cap)
{
    if (!buf || cap == 0 || (!cores && n))
        return rg__error(RG_EINVAL, "rg_core_install_hint: NULL argument");
    const char *sr = getenv("RETROGYM_STABLE_RETRO");
    int have_sr = sr && *sr;
    /* stable-retro's build of the system's first core it ships: its states load there. */
    for (size_t i = 0; i < n; i++)
        if (stable_retro_ships(cores[i])) {
            if (have_sr)
                break; /* installed, yet the core is missing: another way is needed */
            snprintf(buf, cap, "pip install \"retrogym[cores]\" (stable-retro's %s core)", cores[i]);
            return RG_OK;
        }
    for (size_t i = 0; i < n; i++) {
        const char *pkg = debian_package(cores[i]);
        if (pkg) {
            snprintf(buf, cap, "apt-get install %s", pkg);
            return RG_OK;
        }
    }
    snprintf(buf, cap, "put a build of %s_libretro.so into a folder of $RETROGYM_CORE_PATH", n ? cores[0] : "a core");
    return RG_OK;
}
