/* Custom variables: values set by scripts or callers that are not data.json variables (cleared on reset). */
#include "base/base.h"
#include "gamedata_types.h"

#include <stdlib.h>
#include <string.h>

static long find_custom(const rg_gamedata *gd, const char *name, size_t *insert_at)
{
    size_t lo = 0, hi = gd->n_custom;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(name, gd->custom[mid].name);
        if (c == 0)
            return (long)mid;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    if (insert_at)
        *insert_at = lo;
    return -1;
}

int rg_gamedata_custom_set(rg_gamedata *gd, const char *name, rg_value value)
{
    if (!gd || !name)
        return rg__error(RG_EINVAL, "rg_gamedata_custom_set: NULL argument");
    if (value.kind != RG_VALUE_NIL && value.kind != RG_VALUE_BOOL && value.kind != RG_VALUE_NUMBER)
        return rg__error(RG_EINVAL, "custom variable \"%s\": unknown value kind %d", name, (int)value.kind);
    if (value.kind == RG_VALUE_BOOL)
        value.number = value.number != 0;
    if (value.kind == RG_VALUE_NIL)
        value.number = 0;
    size_t at = 0;
    long i = find_custom(gd, name, &at);
    if (i >= 0) {
        gd->custom[i].value = value;
        return RG_OK;
    }
    int rc = rg__reserve(&gd->custom, &gd->cap_custom, gd->n_custom + 1, sizeof *gd->custom);
    if (rc != RG_OK)
        return rc;
    char *copy = rg__strdup(name, &rc);
    if (!copy)
        return rc;
    memmove(gd->custom + at + 1, gd->custom + at, (gd->n_custom - at) * sizeof *gd->custom);
    gd->custom[at].name = copy;
    gd->custom[at].value = value;
    gd->n_custom++;
    return RG_OK;
}

int rg_gamedata_custom_get(const rg_gamedata *gd, const char *name, rg_value *value)
{
    if (!gd || !name || !value)
        return rg__error(RG_EINVAL, "rg_gamedata_custom_get: NULL argument");
    long i = find_custom(gd, name, NULL);
    if (i < 0)
        return rg__error(RG_ENOTFOUND, "no custom variable named \"%s\"", name);
    *value = gd->custom[i].value;
    return RG_OK;
}

size_t rg_gamedata_custom_count(const rg_gamedata *gd)
{
    return gd ? gd->n_custom : 0;
}

int rg_gamedata_custom_at(const rg_gamedata *gd, size_t i, const char **name, rg_value *value)
{
    if (!gd)
        return rg__error(RG_EINVAL, "rg_gamedata_custom_at: NULL argument");
    if (i >= gd->n_custom)
        return rg__error(RG_ERANGE, "custom variable index %zu out of range (%zu)", i, gd->n_custom);
    if (name)
        *name = gd->custom[i].name;
    if (value)
        *value = gd->custom[i].value;
    return RG_OK;
}

void rg_gamedata_clear_custom(rg_gamedata *gd)
{
    if (!gd)
        return;
    for (size_t i = 0; i < gd->n_custom; i++)
        free(gd->custom[i].name);
    gd->n_custom = 0;
}
