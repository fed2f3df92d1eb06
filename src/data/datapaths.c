/* The data root, integration flags and the search order of integration folders (compat spec §6.4). */
#define _POSIX_C_SOURCE 200809L
#include "data_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef RG_SOURCE_DATA_DIR
#define RG_SOURCE_DATA_DIR "data"
#endif

int rg_datapaths_create(rg_datapaths **out, const char *root)
{
    if (!out)
        return rg__error(RG_EINVAL, "rg_datapaths_create: NULL argument");
    *out = NULL;
    const char *from = "the data root";
    if (!root || !*root) {
        const char *env = getenv(RG_DATA_PATH_ENV);
        if (env && *env) {
            root = env;
            from = "$" RG_DATA_PATH_ENV;
        } else {
            root = RG_SOURCE_DATA_DIR;
            from = "the built-in data root";
        }
    }
    if (!rg__is_dir(root))
        return rg__error(RG_ENOTFOUND, "%s %s is not a folder", from, root);
    rg_datapaths *dp = calloc(1, sizeof *dp);
    int rc = RG_OK;
    if (!dp || !(dp->root = rg__strdup(root, &rc))) {
        free(dp);
        return rg__error(RG_ENOMEM, "out of memory");
    }
    size_t n = strlen(dp->root);
    while (n > 1 && dp->root[n - 1] == '/')
        dp->root[--n] = '\0';
    dp->deflt = RG_INTEGRATIONS_STABLE;
    *out = dp;
    return RG_OK;
}

void rg_datapaths_free(rg_datapaths *dp)
{
    if (!dp)
        return;
    rg__strlist_clear(&dp->custom);
    free(dp->root);
    free(dp);
}

const char *rg_datapaths_root(const rg_datapaths *dp)
{
    return dp ? dp->root : NULL;
}

int rg_datapaths_add_custom_path(rg_datapaths *dp, const char *path)
{
    if (!dp || !path || !*path)
        return rg__error(RG_EINVAL, "add_custom_path: NULL or empty path");
    return rg__strlist_push(&dp->custom, path);
}

void rg_datapaths_clear_custom_paths(rg_datapaths *dp)
{
    if (dp)
        rg__strlist_clear(&dp->custom);
}

int rg_datapaths_add_custom_integration(rg_datapaths *dp, const char *path)
{
    int rc = rg_datapaths_add_custom_path(dp, path);
    if (rc == RG_OK)
        dp->deflt |= RG_INTEGRATIONS_CUSTOM_ONLY;
    return rc;
}

int rg_datapaths_add_integrations(rg_datapaths *dp, unsigned flags)
{
    if (!dp || (flags & ~(unsigned)RG_INTEGRATIONS_ALL))
        return rg__error(RG_EINVAL, "add_integrations: bad flags 0x%x", flags);
    dp->deflt |= flags;
    return RG_OK;
}

void rg_datapaths_reset_default(rg_datapaths *dp)
{
    if (dp)
        dp->deflt = RG_INTEGRATIONS_STABLE;
}

unsigned rg_datapaths_default(const rg_datapaths *dp)
{
    return dp ? dp->deflt : RG_INTEGRATIONS_STABLE;
}

/* The folders of flags as written, in priority order. */
static int dirs_as_written(const rg_datapaths *dp, unsigned flags, rg_strlist *out)
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

int rg_datapaths_dirs(const rg_datapaths *dp, unsigned flags, rg_strlist **out)
{
    if (!out)
        return rg__error(RG_EINVAL, "rg_datapaths_dirs: NULL argument");
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

int rg__data_dirs(const rg_datapaths *dp, unsigned flags, rg_strlist *out)
{
    rg_strlist names = {0};
    int rc = dirs_as_written(dp, flags, &names);
    for (size_t i = 0; rc == RG_OK && i < names.count; i++)
        rc = rg__strlist_push_own(out, rg__path_join(dp->root, names.items[i]));
    rg__strlist_clear(&names);
    if (rc != RG_OK)
        rg__strlist_clear(out);
    return rc;
}

int rg__game_dirs(const rg_datapaths *dp, const char *game, unsigned flags, int only_existing, rg_strlist *out)
{
    rg_strlist dirs = {0};
    int rc = rg__data_dirs(dp, flags, &dirs);
    for (size_t i = 0; rc == RG_OK && i < dirs.count; i++) {
        char *p = rg__path_join(dirs.items[i], game);
        if (!p)
            rc = rg__error(RG_ENOMEM, "out of memory");
        else if (only_existing && !rg__is_dir(p))
            free(p);
        else
            rc = rg__strlist_push_own(out, p);
    }
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
