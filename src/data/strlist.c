/* String lists, path helpers and the findings list of the integration-data layer. */
#define _POSIX_C_SOURCE 200809L
#include "data_internal.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int rg__strlist_new(rg_strlist **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? RG_OK : rg__error(RG_ENOMEM, "out of memory");
}

int rg__strlist_push_own(rg_strlist *l, char *s)
{
    if (!s)
        return rg__error(RG_ENOMEM, "out of memory");
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        char **items = realloc(l->items, cap * sizeof *items);
        if (!items) {
            free(s);
            return rg__error(RG_ENOMEM, "out of memory");
        }
        l->items = items;
        l->cap = cap;
    }
    l->items[l->count++] = s;
    return RG_OK;
}

int rg__strlist_push(rg_strlist *l, const char *s)
{
    int rc = RG_OK;
    char *copy = rg__strdup(s, &rc);
    return copy ? rg__strlist_push_own(l, copy) : rc;
}

void rg__strlist_clear(rg_strlist *l)
{
    for (size_t i = 0; i < l->count; i++)
        free(l->items[i]);
    free(l->items);
    l->items = NULL;
    l->count = l->cap = 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void rg__strlist_sort_unique(rg_strlist *l)
{
    if (l->count < 2)
        return;
    qsort(l->items, l->count, sizeof *l->items, cmp_str);
    size_t w = 1;
    for (size_t r = 1; r < l->count; r++) {
        if (strcmp(l->items[r], l->items[w - 1]) == 0)
            free(l->items[r]);
        else
            l->items[w++] = l->items[r];
    }
    l->count = w;
}

int rg__strlist_contains(const rg_strlist *l, const char *s)
{
    for (size_t i = 0; i < l->count; i++)
        if (strcmp(l->items[i], s) == 0)
            return 1;
    return 0;
}

size_t rg_strlist_count(const rg_strlist *list)
{
    return list ? list->count : 0;
}

const char *rg_strlist_at(const rg_strlist *list, size_t i)
{
    return list && i < list->count ? list->items[i] : NULL;
}

void rg_strlist_free(rg_strlist *list)
{
    if (!list)
        return;
    rg__strlist_clear(list);
    free(list);
}

char *rg__path_join(const char *a, const char *b)
{
    if (b[0] == '/') {
        int rc = RG_OK;
        return rg__strdup(b, &rc);
    }
    if (b[0] == '\0') {
        int rc = RG_OK;
        return rg__strdup(a, &rc);
    }
    size_t n = strlen(a);
    return rg__asprintf("%s%s%s", a, n && a[n - 1] == '/' ? "" : "/", b);
}

int rg__path_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

int rg__is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int rg__folder_names(const char *dir, rg_strlist *out)
{
    DIR *dh = opendir(dir);
    if (!dh)
        return RG_OK;
    int rc = RG_OK;
    size_t first = out->count;
    struct dirent *e;
    while (rc == RG_OK && (e = readdir(dh)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            rc = rg__strlist_push(out, e->d_name);
    closedir(dh);
    if (out->count - first > 1)
        qsort(out->items + first, out->count - first, sizeof *out->items, cmp_str);
    return rc;
}

int rg__is_game_dir(const char *dir, const char *name, int *yes)
{
    *yes = 0;
    char *sub = rg__path_join(dir, name);
    char *sha = sub ? rg__path_join(sub, "rom.sha") : NULL;
    int rc = RG_OK;
    if (!sha)
        rc = rg__error(RG_ENOMEM, "out of memory");
    else
        *yes = rg__is_dir(sub) && rg__path_exists(sha);
    free(sub);
    free(sha);
    return rc;
}

int rg__ends_with_ci(const char *name, const char *suffix)
{
    size_t n = strlen(name), m = strlen(suffix);
    if (m > n)
        return 0;
    for (size_t i = 0; i < m; i++)
        if (tolower((unsigned char)name[n - m + i]) != tolower((unsigned char)suffix[i]))
            return 0;
    return 1;
}

char *rg__printable(const char *s, size_t max)
{
    size_t n = strlen(s);
    int cut = n > max;
    if (cut)
        n = max;
    char *out = malloc(n + 4);
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        out[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    memcpy(out + n, cut ? "..." : "", cut ? 4 : 1);
    return out;
}

/* ---- findings ---- */

struct rg_integration_diags {
    rg_integration_diag *items;
    size_t count, cap;
};

int rg_integration_diags_create(rg_integration_diags **out)
{
    if (!out)
        return rg__error(RG_EINVAL, "rg_integration_diags_create: NULL argument");
    *out = calloc(1, sizeof **out);
    return *out ? RG_OK : rg__error(RG_ENOMEM, "out of memory");
}

void rg_integration_diags_free(rg_integration_diags *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->count; i++) {
        free((char *)d->items[i].file);
        free((char *)d->items[i].message);
    }
    free(d->items);
    free(d);
}

size_t rg_integration_diags_count(const rg_integration_diags *d)
{
    return d ? d->count : 0;
}

const rg_integration_diag *rg_integration_diags_at(const rg_integration_diags *d, size_t i)
{
    return d && i < d->count ? &d->items[i] : NULL;
}

size_t rg_integration_diags_severity_count(const rg_integration_diags *d, rg_integration_severity severity)
{
    size_t n = 0;
    for (size_t i = 0; d && i < d->count; i++)
        n += d->items[i].severity == severity;
    return n;
}

int rg__diag_add(rg_integration_diags *d, const char *file, rg_integration_severity sev, const char *fmt, ...)
{
    int grown = rg__reserve(&d->items, &d->cap, d->count + 1, sizeof *d->items);
    if (grown != RG_OK)
        return grown;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *msg = n >= 0 ? malloc((size_t)n + 1) : NULL;
    int rc = RG_OK;
    char *f = rg__strdup(file, &rc);
    if (!msg || !f) {
        free(msg);
        free(f);
        return rg__error(RG_ENOMEM, "out of memory");
    }
    va_start(ap, fmt);
    vsnprintf(msg, (size_t)n + 1, fmt, ap);
    va_end(ap);
    for (char *p = msg; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    for (char *p = f; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    for (size_t i = 0; i < d->count; i++)
        if (d->items[i].severity == sev && strcmp(d->items[i].message, msg) == 0 &&
            strcmp(d->items[i].file, f) == 0) {
            free(msg); /* the same finding twice (e.g. a broken metadata.json seen by several checks) */
            free(f);
            return RG_OK;
        }
    d->items[d->count++] = (rg_integration_diag){f, sev, msg};
    return RG_OK;
}
