/* Core options. Cores read options with GET_VARIABLE; several crash or change their output when a declared option
 * has no value (bsnes, gpgx, nestopia, pce: docs/formats.md, "libretro hosting"), so every declared option is
 * answered with its declared default unless the caller overrides it. The v1/v2 interfaces are accepted too: we
 * answer GET_CORE_OPTIONS_VERSION with 0 so cores fall back to SET_VARIABLES, but a core that sends v1/v2 anyway is
 * understood. */
#include "lr_internal.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

static rg__lr_option *find(const rg__lr_options *o, const char *key)
{
    for (size_t i = 0; i < o->count; i++)
        if (strcmp(o->items[i].key, key) == 0)
            return &o->items[i];
    return NULL;
}

static const char *override_for(const rg__lr_options *o, const char *key)
{
    for (size_t i = 0; i < o->n_overrides; i++)
        if (o->overrides[i].key && strcmp(o->overrides[i].key, key) == 0)
            return o->overrides[i].value;
    return NULL;
}

/* Declares key with default value def (len bytes of it); a caller override wins. */
static bool declare(rg__lr_options *o, const char *key, const char *def, size_t len)
{
    const char *ov = override_for(o, key);
    char *value;
    if (ov) {
        len = strlen(ov);
        def = ov;
    }
    value = malloc(len + 1);
    if (!value)
        return false;
    memcpy(value, def, len);
    value[len] = '\0';
    rg__lr_option *it = find(o, key);
    if (it) {
        free(it->value);
        it->value = value;
        return true;
    }
    if (o->count == o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 32;
        rg__lr_option *items = realloc(o->items, cap * sizeof *items);
        if (!items) {
            free(value);
            return false;
        }
        o->items = items;
        o->cap = cap;
    }
    char *k = malloc(strlen(key) + 1);
    if (!k) {
        free(value);
        return false;
    }
    strcpy(k, key);
    o->items[o->count].key = k;
    o->items[o->count].value = value;
    o->count++;
    return true;
}

bool rg__lr_options_set_v0(rg__lr_options *o, const struct retro_variable *vars)
{
    for (; vars && vars->key; vars++) {
        /* "Description; first|second|third": the default is the first value. */
        const char *v = vars->value ? strstr(vars->value, "; ") : NULL;
        const char *def = v ? v + 2 : "";
        size_t len = strcspn(def, "|");
        if (!declare(o, vars->key, def, len))
            return false;
    }
    return true;
}

/* The v1 and v2 definitions share their first fields' meaning: key, values[], default_value. */
static bool declare_default(rg__lr_options *o, const char *key, const char *def, const char *first)
{
    const char *v = def ? def : first;
    if (!v)
        v = "";
    return declare(o, key, v, strlen(v));
}

bool rg__lr_options_set_v1(rg__lr_options *o, const struct retro_core_option_definition *defs)
{
    for (; defs && defs->key; defs++)
        if (!declare_default(o, defs->key, defs->default_value, defs->values[0].value))
            return false;
    return true;
}

bool rg__lr_options_set_v2(rg__lr_options *o, const struct retro_core_option_v2_definition *defs)
{
    for (; defs && defs->key; defs++)
        if (!declare_default(o, defs->key, defs->default_value, defs->values[0].value))
            return false;
    return true;
}

const char *rg__lr_options_get(const rg__lr_options *o, const char *key)
{
    const rg__lr_option *it = find(o, key);
    if (it)
        return it->value;
    return override_for(o, key); /* an option the core never declared but the caller set */
}

static int add_override(rg__lr_options *o, const char *key, const char *value)
{
    if (!key || !value)
        return RG_OK;
    int rc = RG_OK;
    char *k = rg__strdup(key, &rc), *v = rg__strdup(value, &rc);
    if (rc != RG_OK) {
        free(k);
        free(v);
        return rc;
    }
    o->overrides[o->n_overrides].key = k;
    o->overrides[o->n_overrides].value = v;
    o->n_overrides++;
    return RG_OK;
}

int rg__lr_options_set_overrides(rg__lr_options *o, const rg_core_option *caller, size_t n_caller,
                                 const rg_system_info *sys, const char *core_name)
{
    size_t n_sys = sys ? sys->n_core_options : 0;
    o->overrides = calloc(n_caller + n_sys + 1, sizeof *o->overrides);
    if (!o->overrides)
        return rg__error(RG_ENOMEM, "out of memory");
    int rc = RG_OK;
    for (size_t i = 0; rc == RG_OK && i < n_caller; i++)
        rc = add_override(o, caller[i].key, caller[i].value);
    for (size_t i = 0; rc == RG_OK && i < n_sys; i++)
        if (strcmp(sys->core_options[i].core, core_name) == 0)
            rc = add_override(o, sys->core_options[i].key, sys->core_options[i].value);
    return rc;
}

void rg__lr_options_free(rg__lr_options *o)
{
    for (size_t i = 0; i < o->n_overrides; i++) {
        free((char *)o->overrides[i].key);
        free((char *)o->overrides[i].value);
    }
    free(o->overrides);
    o->overrides = NULL;
    o->n_overrides = 0;
    for (size_t i = 0; i < o->count; i++) {
        free(o->items[i].key);
        free(o->items[i].value);
    }
    free(o->items);
    o->items = NULL;
    o->count = o->cap = 0;
}
