/* data.json: loading (lenient like Gym Retro, with warnings; or strict) and saving (docs/formats.md, "Data types"). */
#include "base/base.h"
#include "gamedata_types.h"
#include "json_util.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DATA_JSON_MAX_SIZE (16u << 20)

#define add_warning(gd, ...) rg__messages_add(&(gd)->warnings, __VA_ARGS__)

/* One entry of "info". Returns RG_OK (added or skipped with a warning) or an error. */
static int load_entry(rg_gamedata *gd, const char *name, json_t *entry, unsigned flags)
{
    const int strict = flags & RG_LOAD_STRICT;
    if (!json_is_object(entry))
        return rg__error(RG_ECORRUPT, "variable \"%s\" is not an object", name);
    json_t *jaddr = json_object_get(entry, "address"), *jtype = json_object_get(entry, "type");
    if (!jaddr || !jtype)
        return rg__error(RG_ECORRUPT, "variable \"%s\" has no %s", name, jaddr ? "type" : "address");
    uint64_t address;
    /* Above INT64_MAX an address could not be saved again: a JSON integer is an int64 to jansson. */
    if (rg__json_u64(jaddr, &address) != RG_OK || address > INT64_MAX)
        return rg__error(RG_ECORRUPT, "variable \"%s\": the address must be a non-negative integer below 2^63", name);
    if (!json_is_string(jtype))
        return rg__error(RG_ECORRUPT, "variable \"%s\": the type must be a string", name);
    uint64_t mask = RG_MASK_ALL;
    json_t *jmask = json_object_get(entry, "mask");
    if (json_is_integer(jmask)) /* negative masks are two's complement, as Gym Retro reads them (Amidar: -113) */
        mask = (uint64_t)json_integer_value(jmask);
    else if (jmask && rg__json_u64(jmask, &mask) != RG_OK) {
        if (strict)
            return rg__error(RG_ECORRUPT, "variable \"%s\": the mask must be an integer", name);
        mask = RG_MASK_ALL;
        int rc = add_warning(gd, "variable %s: mask is not an integer, ignored", name);
        if (rc != RG_OK)
            return rc;
    }
    const char *type = json_string_value(jtype);
    rg_datatype t;
    if (rg_datatype_parse(type, &t) != RG_OK) {
        if (strict)
            return rg__error_context(RG_ECORRUPT, "variable \"%s\"", name);
        return add_warning(gd, "variable %s: type \"%.32s\" is not <endianness><format><bytes> with 1-8 bytes, skipped",
                           name, type);
    }
    return rg__gd_append(gd, name, address, &t, mask); /* keys of one JSON object are unique */
}

int rg_gamedata_load_string(rg_gamedata *gd, const char *json, size_t len, unsigned flags)
{
    if (!gd || (!json && len))
        return rg__error(RG_EINVAL, "rg_gamedata_load_string: NULL argument");
    json_t *root;
    int rc = rg__json_parse(json, len, &root, "data.json");
    if (rc != RG_OK)
        return rc;
    json_t *info = json_object_get(root, "info");
    if (!json_is_object(info)) {
        json_decref(root);
        return rg__error(RG_ECORRUPT, "data.json has no \"info\" object");
    }
    /* Build the new set aside; the old one comes back on any error. */
    rg__gd_var *old = gd->vars;
    size_t old_n = gd->n_vars, old_cap = gd->cap_vars;
    gd->vars = NULL;
    gd->n_vars = gd->cap_vars = 0;
    rg__gd_free_warnings(gd);
    const char *name;
    json_t *entry;
    json_object_foreach(info, name, entry) {
        if ((rc = load_entry(gd, name, entry, flags)) != RG_OK)
            break;
    }
    json_decref(root);
    if (rc != RG_OK) {
        rg__gd_free_vars(gd->vars, gd->n_vars);
        gd->vars = old;
        gd->n_vars = old_n;
        gd->cap_vars = old_cap;
        return rc;
    }
    rg__gd_free_vars(old, old_n);
    rg__gd_sort(gd);
    return RG_OK;
}

int rg_gamedata_load_file(rg_gamedata *gd, const char *path, unsigned flags)
{
    if (!gd || !path)
        return rg__error(RG_EINVAL, "rg_gamedata_load_file: NULL argument");
    uint8_t *data;
    size_t size;
    int rc = rg__read_file(path, DATA_JSON_MAX_SIZE, &data, &size);
    if (rc != RG_OK)
        return rc;
    rc = rg_gamedata_load_string(gd, (const char *)data, size, flags);
    free(data);
    return rc == RG_OK ? RG_OK : rg__error_context(rc, "%s", path);
}

size_t rg_gamedata_warning_count(const rg_gamedata *gd)
{
    return gd ? gd->warnings.count : 0;
}

const char *rg_gamedata_warning(const rg_gamedata *gd, size_t i)
{
    return gd && i < gd->warnings.count ? gd->warnings.items[i] : NULL;
}

int rg_gamedata_save_file(const rg_gamedata *gd, const char *path)
{
    if (!gd || !path)
        return rg__error(RG_EINVAL, "rg_gamedata_save_file: NULL argument");
    json_t *root = json_object(), *info = json_object();
    int bad = !root || !info || json_object_set(root, "info", info) != 0;
    for (size_t i = 0; !bad && i < gd->n_vars; i++) {
        const rg__gd_var *v = &gd->vars[i];
        json_t *e = json_object();
        bad = !e || json_object_set_new(info, v->name, e) != 0 ||
              json_object_set_new(e, "address", json_integer((json_int_t)v->address)) != 0 ||
              json_object_set_new(e, "type", json_string(v->type.repr)) != 0 ||
              (v->mask != RG_MASK_ALL && json_object_set_new(e, "mask", json_integer((json_int_t)v->mask)) != 0);
    }
    char *text = bad ? NULL : json_dumps(root, JSON_INDENT(2) | JSON_SORT_KEYS);
    json_decref(info);
    json_decref(root);
    if (!text)
        return rg__error(RG_ENOMEM, "out of memory");
    size_t n = strlen(text);
    int rc = rg__write_file_atomic(path, text, n);
    free(text);
    return rc;
}
