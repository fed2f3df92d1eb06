/* The data root, integration flags and the search order of integration folders (docs/integrations.md, "Data roots",
 * "Integration flags and search order"). */
#define _POSIX_C_SOURCE 200809L
#include "data_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Our own integrations (data/), relative to the folder of the file holding the library's code (see rg__own_dir):
 * from an installed libretrogym.so and from an installed executable (given by the build, CMakeLists.txt), then
 * beside it or one folder up (the build tree links data/ there; the Python package carries retrogym/data). */
#ifndef RG_DATA_DIR_FROM_LIB
#define RG_DATA_DIR_FROM_LIB "../share/retrogym/data"
#endif
#ifndef RG_DATA_DIR_FROM_BIN
#define RG_DATA_DIR_FROM_BIN "../share/retrogym/data"
#endif
static const char *const own_data_dirs[] = {RG_DATA_DIR_FROM_LIB, RG_DATA_DIR_FROM_BIN, "data", "../data"};

static const char *const origin_names[] = {"given", "env var", "user", "own", "stable-retro"};

const char *rg_integration_origin_name(rg_integration_origin origin)
{
    return (unsigned)origin < sizeof origin_names / sizeof origin_names[0] ? origin_names[origin] : "?";
}

int rg_integration_user_root(char *buf, size_t cap)
{
    if (!buf || cap == 0)
        return rg__error(RG_EINVAL, "rg_integration_user_root: NULL argument");
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/')
        n = snprintf(buf, cap, "%s/retrogym", xdg);
    else if (home && *home)
        n = snprintf(buf, cap, "%s/.local/share/retrogym", home);
    else
        return rg__error(RG_ENOTFOUND, "no user data root: neither XDG_DATA_HOME nor HOME is set");
    if (n < 0 || (size_t)n >= cap)
        return rg__error(RG_EBUFFER, "the user data root's path is too long for the buffer");
    return RG_OK;
}

/* Appends a root (trailing slashes dropped). */
static int push_root(rg_integration_paths *dp, const char *path, size_t len, rg_integration_origin origin)
{
    while (len > 1 && path[len - 1] == '/')
        len--;
    rg__root *r = realloc(dp->roots, (dp->n_roots + 1) * sizeof *r);
    if (!r)
        return rg__error(RG_ENOMEM, "out of memory");
    dp->roots = r;
    char *copy = malloc(len + 1);
    if (!copy)
        return rg__error(RG_ENOMEM, "out of memory");
    memcpy(copy, path, len);
    copy[len] = '\0';
    r[dp->n_roots].path = copy;
    r[dp->n_roots].origin = origin;
    dp->n_roots++;
    return RG_OK;
}

/* Appends each ':'-separated folder of list; each must be a folder (the message says where it came from). */
static int push_list(rg_integration_paths *dp, const char *list, rg_integration_origin origin, const char *from)
{
    int rc = RG_OK;
    for (const char *p = list; rc == RG_OK && *p;) {
        size_t len = strcspn(p, ":");
        if (len > 0) {
            char *one = malloc(len + 1);
            if (!one)
                return rg__error(RG_ENOMEM, "out of memory");
            memcpy(one, p, len);
            one[len] = '\0';
            rc = rg__is_dir(one) ? push_root(dp, one, len, origin)
                                 : rg__error(RG_ENOTFOUND, "%s %s is not a folder", from, one);
            free(one);
        }
        p += len + (p[len] == ':');
    }
    return rc;
}

/* The default roots: $RETROGYM_DATA_PATH, the user root, our own data (rg__own_dir), stable-retro's data. */
static int push_defaults(rg_integration_paths *dp)
{
    const char *env = getenv(RG_INTEGRATION_PATH_ENV);
    int rc = env && *env ? push_list(dp, env, RG_INTEGRATION_ORIGIN_ENV, "$" RG_INTEGRATION_PATH_ENV) : RG_OK;
    char user[4096];
    if (rc == RG_OK && rg_integration_user_root(user, sizeof user) == RG_OK)
        rc = push_root(dp, user, strlen(user), RG_INTEGRATION_ORIGIN_USER);
    char *own = rc == RG_OK ? rg__own_dir(own_data_dirs, sizeof own_data_dirs / sizeof own_data_dirs[0]) : NULL;
    if (own) {
        rc = push_root(dp, own, strlen(own), RG_INTEGRATION_ORIGIN_OWN);
        free(own);
    }
    const char *sr = getenv(RG_INTEGRATION_STABLE_RETRO_ENV);
    if (rc == RG_OK && sr && *sr) {
        char *data = rg__path_join(sr, "data");
        if (!data)
            return rg__error(RG_ENOMEM, "out of memory");
        if (rg__is_dir(data))
            rc = push_root(dp, data, strlen(data), RG_INTEGRATION_ORIGIN_STABLE_RETRO);
        free(data);
    }
    if (rc == RG_OK && dp->n_roots == 0)
        rc = rg__error(RG_ENOTFOUND, "no data root: set $" RG_INTEGRATION_PATH_ENV " or HOME");
    return rc;
}

static int finish(rg_integration_paths **out, rg_integration_paths *dp, int rc)
{
    if (rc != RG_OK) {
        rg_integration_paths_free(dp);
        return rc;
    }
    dp->deflt = RG_INTEGRATIONS_STABLE;
    *out = dp;
    return RG_OK;
}

int rg_integration_paths_create(rg_integration_paths **out, const char *root)
{
    if (!out)
        return rg__error(RG_EINVAL, "rg_integration_paths_create: NULL argument");
    *out = NULL;
    rg_integration_paths *dp = calloc(1, sizeof *dp);
    if (!dp)
        return rg__error(RG_ENOMEM, "out of memory");
    int rc = root && *root ? push_list(dp, root, RG_INTEGRATION_ORIGIN_GIVEN, "the data root") : push_defaults(dp);
    if (rc == RG_OK && dp->n_roots == 0)
        rc = rg__error(RG_ENOTFOUND, "the data root \"%s\" names no folder", root);
    return finish(out, dp, rc);
}

int rg_integration_paths_create_roots(rg_integration_paths **out, const char *const *roots, const rg_integration_origin *origins,
                              size_t n)
{
    if (!out || !roots || !origins || n == 0)
        return rg__error(RG_EINVAL, "rg_integration_paths_create_roots: no roots");
    *out = NULL;
    rg_integration_paths *dp = calloc(1, sizeof *dp);
    if (!dp)
        return rg__error(RG_ENOMEM, "out of memory");
    int rc = RG_OK;
    for (size_t i = 0; rc == RG_OK && i < n; i++) {
        if (!roots[i] || !*roots[i])
            rc = rg__error(RG_EINVAL, "data root %zu is empty", i);
        else if ((unsigned)origins[i] > RG_INTEGRATION_ORIGIN_STABLE_RETRO)
            rc = rg__error(RG_EINVAL, "data root %s: unknown origin %d", roots[i], (int)origins[i]);
        else if ((origins[i] == RG_INTEGRATION_ORIGIN_GIVEN || origins[i] == RG_INTEGRATION_ORIGIN_ENV) && !rg__is_dir(roots[i]))
            rc = rg__error(RG_ENOTFOUND, "%s %s is not a folder",
                           origins[i] == RG_INTEGRATION_ORIGIN_ENV ? "$" RG_INTEGRATION_PATH_ENV : "the data root", roots[i]);
        else
            rc = push_root(dp, roots[i], strlen(roots[i]), origins[i]);
    }
    return finish(out, dp, rc);
}

void rg_integration_paths_free(rg_integration_paths *dp)
{
    if (!dp)
        return;
    rg__strlist_clear(&dp->custom);
    for (size_t i = 0; i < dp->n_roots; i++)
        free(dp->roots[i].path);
    free(dp->roots);
    free(dp);
}

const char *rg_integration_paths_root(const rg_integration_paths *dp)
{
    return dp && dp->n_roots ? dp->roots[0].path : NULL;
}

size_t rg_integration_paths_root_count(const rg_integration_paths *dp)
{
    return dp ? dp->n_roots : 0;
}

const char *rg_integration_paths_root_at(const rg_integration_paths *dp, size_t i)
{
    return dp && i < dp->n_roots ? dp->roots[i].path : NULL;
}

rg_integration_origin rg_integration_paths_root_origin(const rg_integration_paths *dp, size_t i)
{
    return dp && i < dp->n_roots ? dp->roots[i].origin : RG_INTEGRATION_ORIGIN_GIVEN;
}

size_t rg_integration_paths_roots_text(const rg_integration_paths *dp, char *buf, size_t cap)
{
    size_t used = 0;
    if (buf && cap)
        buf[0] = '\0';
    for (size_t i = 0; dp && i < dp->n_roots; i++) {
        int n = snprintf(buf && used < cap ? buf + used : NULL, buf && used < cap ? cap - used : 0, "%s%s (%s)",
                         i ? ", " : "", dp->roots[i].path, rg_integration_origin_name(dp->roots[i].origin));
        used += n > 0 ? (size_t)n : 0;
    }
    return used;
}

const char *rg_integration_paths_write_root(const rg_integration_paths *dp)
{
    for (size_t i = 0; dp && i < dp->n_roots; i++)
        if (dp->roots[i].origin == RG_INTEGRATION_ORIGIN_USER)
            return dp->roots[i].path;
    return NULL;
}

size_t rg__root_of(const rg_integration_paths *dp, const char *path)
{
    size_t best = dp->n_roots, best_len = 0;
    for (size_t i = 0; i < dp->n_roots; i++) {
        size_t n = strlen(dp->roots[i].path);
        if (n > best_len && strncmp(path, dp->roots[i].path, n) == 0 && (path[n] == '/' || path[n] == '\0')) {
            best = i;
            best_len = n;
        }
    }
    return best;
}

int rg__mkdirs(const char *path)
{
    int rc = RG_OK;
    char *p = rg__strdup(path, &rc);
    if (!p)
        return rc;
    for (char *s = p + 1;; s++) {
        if (*s != '/' && *s != '\0')
            continue;
        char c = *s;
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST) {
            rc = rg__error(RG_EIO, "cannot create the folder %s: %s", p, strerror(errno));
            break;
        }
        *s = c;
        if (!c)
            break;
    }
    free(p);
    if (rc == RG_OK && !rg__is_dir(path))
        rc = rg__error(RG_EIO, "%s is not a folder", path);
    return rc;
}

int rg_integration_paths_add_custom_path(rg_integration_paths *dp, const char *path)
{
    if (!dp || !path || !*path)
        return rg__error(RG_EINVAL, "add_custom_path: NULL or empty path");
    return rg__strlist_push(&dp->custom, path);
}

void rg_integration_paths_clear_custom_paths(rg_integration_paths *dp)
{
    if (dp)
        rg__strlist_clear(&dp->custom);
}

int rg_integration_paths_add_custom_integration(rg_integration_paths *dp, const char *path)
{
    int rc = rg_integration_paths_add_custom_path(dp, path);
    if (rc == RG_OK)
        dp->deflt |= RG_INTEGRATIONS_CUSTOM_ONLY;
    return rc;
}

int rg_integration_paths_add_integrations(rg_integration_paths *dp, unsigned flags)
{
    if (!dp || (flags & ~(unsigned)RG_INTEGRATIONS_ALL))
        return rg__error(RG_EINVAL, "add_integrations: bad flags 0x%x", flags);
    dp->deflt |= flags;
    return RG_OK;
}

void rg_integration_paths_reset_default(rg_integration_paths *dp)
{
    if (dp)
        dp->deflt = RG_INTEGRATIONS_STABLE;
}

unsigned rg_integration_paths_default(const rg_integration_paths *dp)
{
    return dp ? dp->deflt : RG_INTEGRATIONS_STABLE;
}

/* The folders of flags as written, in priority order. */
static int dirs_as_written(const rg_integration_paths *dp, unsigned flags, rg_strlist *out)
{
    if (!dp || (flags & ~(unsigned)RG_INTEGRATIONS_ALL))
        return rg__error(RG_EINVAL, "bad integration flags 0x%x", flags);
    if (flags == RG_INTEGRATIONS_DEFAULT)
        flags = dp->deflt;
    int rc = RG_OK;
    if (flags & RG_INTEGRATIONS_CONTRIB_ONLY)
        rc = rg__strlist_push(out, "contrib");
    if (rc == RG_OK && (flags & RG_INTEGRATIONS_EXPERIMENTAL_ONLY))
        rc = rg__strlist_push(out, "experimental");
    if (flags & RG_INTEGRATIONS_CUSTOM_ONLY)
        for (size_t i = 0; rc == RG_OK && i < dp->custom.count; i++)
            rc = rg__strlist_push(out, dp->custom.items[i]);
    if (rc == RG_OK && (flags & RG_INTEGRATIONS_STABLE))
        rc = rg__strlist_push(out, "stable");
    if (rc != RG_OK)
        rg__strlist_clear(out);
    return rc;
}

int rg_integration_paths_dirs(const rg_integration_paths *dp, unsigned flags, rg_strlist **out)
{
    if (!out)
        return rg__error(RG_EINVAL, "rg_integration_paths_dirs: NULL argument");
    *out = NULL;
    rg_strlist *l;
    int rc = rg__strlist_new(&l);
    if (rc == RG_OK && (rc = dirs_as_written(dp, flags, l)) != RG_OK) {
        rg_strlist_free(l);
        return rc;
    }
    *out = l;
    return rc;
}

int rg__data_dirs(const rg_integration_paths *dp, unsigned flags, rg_strlist *out)
{
    rg_strlist names = {0};
    int rc = dirs_as_written(dp, flags, &names);
    for (size_t r = 0; rc == RG_OK && r < dp->n_roots; r++)
        for (size_t i = 0; rc == RG_OK && i < names.count; i++) {
            if (names.items[i][0] == '/' && r > 0)
                continue; /* an absolute custom path: once */
            rc = rg__strlist_push_own(out, rg__path_join(dp->roots[r].path, names.items[i]));
        }
    rg__strlist_clear(&names);
    if (rc != RG_OK)
        rg__strlist_clear(out);
    return rc;
}

char *rg__game_alias(const char *game)
{
    const char *dash = strrchr(game, '-');
    if (dash && dash[1] == 'v' && dash[2] && strspn(dash + 2, "0123456789") == strlen(dash + 2)) {
        size_t n = (size_t)(dash - game);
        char *out = malloc(n + 1);
        if (out) {
            memcpy(out, game, n);
            out[n] = '\0';
        }
        return out;
    }
    return rg__asprintf("%s-v0", game);
}

int rg__game_dirs(const rg_integration_paths *dp, const char *game, unsigned flags, int only_existing, rg_strlist *out)
{
    rg_strlist dirs = {0};
    int rc = rg__data_dirs(dp, flags, &dirs);
    char *alias = NULL;
    if (rc == RG_OK && *game && !(alias = rg__game_alias(game)))
        rc = rg__error(RG_ENOMEM, "out of memory");
    for (size_t i = 0; rc == RG_OK && i < dirs.count; i++)
        for (int form = 0; rc == RG_OK && form < (alias ? 2 : 1); form++) {
            char *p = rg__path_join(dirs.items[i], form ? alias : game);
            if (!p)
                rc = rg__error(RG_ENOMEM, "out of memory");
            else if (only_existing && !rg__is_dir(p))
                free(p);
            else
                rc = rg__strlist_push_own(out, p);
        }
    free(alias);
    rg__strlist_clear(&dirs);
    if (rc != RG_OK)
        rg__strlist_clear(out);
    return rc;
}

static const struct {
    const char *name;
    unsigned flags;
} int_names[] = {
    {"stable", RG_INTEGRATIONS_STABLE},
    {"contrib", RG_INTEGRATIONS_CONTRIB},
    {"experimental", RG_INTEGRATIONS_EXPERIMENTAL},
    {"custom", RG_INTEGRATIONS_CUSTOM},
    {"contrib-only", RG_INTEGRATIONS_CONTRIB_ONLY},
    {"experimental-only", RG_INTEGRATIONS_EXPERIMENTAL_ONLY},
    {"custom-only", RG_INTEGRATIONS_CUSTOM_ONLY},
    {"all", RG_INTEGRATIONS_ALL},
    {"default", RG_INTEGRATIONS_DEFAULT},
};

int rg_integrations_parse(const char *text, unsigned *flags)
{
    if (!text || !flags)
        return rg__error(RG_EINVAL, "rg_integrations_parse: NULL argument");
    unsigned acc = 0;
    const char *p = text;
    int any = 0;
    for (;;) {
        size_t n = strcspn(p, "|,");
        size_t i;
        for (i = 0; i < sizeof int_names / sizeof int_names[0]; i++)
            if (strlen(int_names[i].name) == n && strncmp(int_names[i].name, p, n) == 0)
                break;
        if (i == sizeof int_names / sizeof int_names[0])
            return rg__error(RG_EINVAL,
                             "unknown integration \"%.*s\" (stable, contrib, experimental, custom, all, "
                             "contrib-only, experimental-only, custom-only)",
                             (int)(n > 64 ? 64 : n), p);
        acc |= int_names[i].flags;
        any = 1;
        if (p[n] == '\0')
            break;
        p += n + 1;
    }
    *flags = any ? acc : 0;
    return RG_OK;
}

const char *rg_integrations_name(unsigned flags, char *buf, size_t cap)
{
    if (!buf || cap == 0)
        return "";
    if (flags == RG_INTEGRATIONS_ALL) {
        snprintf(buf, cap, "all");
        return buf;
    }
    if (flags == RG_INTEGRATIONS_DEFAULT) {
        snprintf(buf, cap, "default");
        return buf;
    }
    static const char *const names[] = {"stable", "experimental", "contrib", "custom"};
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned bit = 0; bit < 4; bit++)
        if ((flags & (1u << bit)) && used < cap) {
            int n = snprintf(buf + used, cap - used, "%s%s", used ? "|" : "", names[bit]);
            used += n > 0 ? (size_t)n : 0;
        }
    return buf;
}

char *rg__roots_message(const rg_integration_paths *dp)
{
    size_t n = rg_integration_paths_roots_text(dp, NULL, 0);
    char *t = malloc(n + 1);
    if (t)
        rg_integration_paths_roots_text(dp, t, n + 1);
    return t;
}
