/* data.json validation and whitelist reconciliation (docs/integrations.md, "Validation"; verify_data of Gym Retro's
 * testing tools). */
#define _POSIX_C_SOURCE 200809L
#include "data_internal.h"

#include "retrogym/datatype.h"

#include <stdlib.h>
#include <string.h>

int rg__load_metadata_json(const rg__gamectx *ctx, json_t **json, char **path, rg_integration_diags *out)
{
    *json = NULL;
    if (path)
        *path = NULL;
    int rc = RG_OK;
    char *p = rg__find_in(&ctx->dirs_stable, "metadata.json", &rc);
    if (!p)
        return rc;
    char *err = NULL;
    json_t *j = NULL;
    rc = rg__json_load_file(p, RG__METADATA_MAX_SIZE, &j, &err);
    if (rc == RG_ENOMEM) {
        free(err);
        free(p);
        return rc;
    }
    if (rc != RG_OK)
        rc = rg__diag_add(out, p, RG_INTEGRATION_SEVERITY_ERROR, "%s", err ? err : "fail decode");
    else if (!json_is_object(j))
        rc = rg__diag_add(out, p, RG_INTEGRATION_SEVERITY_ERROR, "fail decode: not a JSON object");
    else
        *json = json_incref(j);
    json_decref(j);
    free(err);
    if (path && rc == RG_OK)
        *path = p;
    else
        free(p);
    return rc;
}

/* The whitelist of one file: checked for shape (errors to out), then copied into list (deduplicated). */
static int whitelist_of(const json_t *meta, const char *meta_path, const char *file_key, rg_strlist *list,
                        rg_integration_diags *out)
{
    const json_t *wl = json_object_get(meta, "whitelist");
    if (!wl || json_is_null(wl))
        return RG_OK;
    if (!json_is_object(wl))
        return rg__diag_add(out, meta_path, RG_INTEGRATION_SEVERITY_ERROR, "whitelist is not an object");
    const json_t *arr = json_object_get(wl, file_key);
    if (!arr || json_is_null(arr))
        return RG_OK;
    if (!json_is_array(arr))
        return rg__diag_add(out, meta_path, RG_INTEGRATION_SEVERITY_ERROR, "whitelist[\"%s\"] is not an array of strings",
                            file_key);
    int rc = RG_OK;
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) {
        if (rc != RG_OK)
            break;
        if (!json_is_string(v))
            rc = rg__diag_add(out, meta_path, RG_INTEGRATION_SEVERITY_ERROR, "whitelist[\"%s\"][%zu] is not a string",
                              file_key, i);
        else if (!rg__strlist_contains(list, json_string_value(v)))
            rc = rg__strlist_push(list, json_string_value(v));
    }
    return rc;
}

int rg__reconcile(const rg__gamectx *ctx, const char *file, const char *file_key, const rg_strlist *warnings,
                  rg_integration_diags *out)
{
    json_t *meta = NULL;
    char *meta_path = NULL;
    rg_strlist wl = {0}, seen = {0};
    int rc = rg__load_metadata_json(ctx, &meta, &meta_path, out);
    if (rc == RG_OK && meta)
        rc = whitelist_of(meta, meta_path, file_key, &wl, out);
    for (size_t i = 0; rc == RG_OK && i < warnings->count; i++) {
        const char *w = warnings->items[i];
        if (rg__strlist_contains(&seen, w))
            continue;
        rc = rg__strlist_push(&seen, w);
        if (rc == RG_OK && !rg__strlist_contains(&wl, w))
            rc = rg__diag_add(out, file, RG_INTEGRATION_SEVERITY_WARNING, "%s", w);
    }
    for (size_t i = 0; rc == RG_OK && i < wl.count; i++)
        if (!rg__strlist_contains(&seen, wl.items[i]))
            rc = rg__diag_add(out, meta_path, RG_INTEGRATION_SEVERITY_ERROR, "missing warning \"%s/%s: %s\"", ctx->game,
                              file_key, wl.items[i]);
    rg__strlist_clear(&wl);
    rg__strlist_clear(&seen);
    json_decref(meta);
    free(meta_path);
    return rc;
}

/* Whether a JSON value is an address: a non-negative integer (or an integral real, as Gym Retro's loader reads). */
static int is_address(const json_t *v)
{
    if (json_is_integer(v))
        return json_integer_value(v) >= 0;
    if (json_is_real(v)) {
        double d = json_real_value(v);
        return d >= 0 && d < 18446744073709551616.0 && (double)(uint64_t)d == d;
    }
    return 0;
}

/* Checks one variable; errors go to out, warnings to the list. */
static int check_variable(const char *path, const char *name, const json_t *def, rg_strlist *warnings,
                          rg_integration_diags *out)
{
    if (!json_is_object(def))
        return rg__diag_add(out, path, RG_INTEGRATION_SEVERITY_ERROR, "invalid definition for %s", name);
    int rc = RG_OK;
    const json_t *addr = json_object_get(def, "address");
    if (!addr)
        rc = rg__diag_add(out, path, RG_INTEGRATION_SEVERITY_ERROR, "missing address for %s", name);
    else if (!is_address(addr))
        rc = rg__diag_add(out, path, RG_INTEGRATION_SEVERITY_ERROR, "invalid address for %s", name);
    const json_t *mask = json_object_get(def, "mask");
    if (rc == RG_OK && mask && !json_is_integer(mask))
        rc = rg__diag_add(out, path, RG_INTEGRATION_SEVERITY_ERROR, "invalid mask for %s", name);
    const json_t *type = json_object_get(def, "type");
    if (rc != RG_OK)
        return rc;
    if (!type)
        return rg__diag_add(out, path, RG_INTEGRATION_SEVERITY_ERROR, "missing type for %s", name);
    if (!json_is_string(type))
        return rg__diag_add(out, path, RG_INTEGRATION_SEVERITY_ERROR, "invalid type (not a string) for %s", name);
    const char *t = json_string_value(type);
    int suspicious = 0;
    if (!rg_datatype_is_valid(t, &suspicious))
        return rg__diag_add(out, path, RG_INTEGRATION_SEVERITY_ERROR, "invalid type %.32s for %s", t, name);
    if (suspicious)
        return rg__strlist_push_own(warnings, rg__asprintf("suspicious type %s for %s", t, name));
    return RG_OK;
}

/* The type string of a variable, or NULL. */
static const char *type_of(const json_t *info, const char *name)
{
    const json_t *def = json_object_get(info, name);
    const json_t *t = json_is_object(def) ? json_object_get(def, "type") : NULL;
    return json_is_string(t) ? json_string_value(t) : NULL;
}

/* Gym Retro's two name-based hints: lives should be one byte, a score should not be one byte or signed. */
static int check_lives_score(const json_t *info, rg_strlist *warnings)
{
    int rc = RG_OK;
    const char *t = type_of(info, "lives");
    if (t && strcmp(t, "|u1") != 0 && strcmp(t, "|i1") != 0 && strcmp(t, "|d1") != 0)
        rc = rg__strlist_push_own(warnings, rg__asprintf("suspicious type %s for lives", t));
    t = type_of(info, "score");
    if (rc == RG_OK && t && t[0] &&
        (strcmp(t + 1, "u1") == 0 || strcmp(t + 1, "d1") == 0 || strcmp(t + 1, "n1") == 0 ||
         strcmp(t + 1, "n2") == 0 || strchr(t, 'i')))
        rc = rg__strlist_push_own(warnings, rg__asprintf("suspicious type %s for score", t));
    return rc;
}

int rg__check_data(const rg__gamectx *ctx, rg_integration_diags *out)
{
    int rc = RG_OK;
    char *path = rg__find_in(&ctx->dirs, "data.json", &rc);
    if (!path)
        return rc;
    json_t *root = NULL;
    char *err = NULL;
    rc = rg__json_load_file(path, RG__JSON_MAX_SIZE, &root, &err);
    if (rc != RG_OK) {
        if (rc != RG_ENOMEM)
            rc = rg__diag_add(out, path, RG_INTEGRATION_SEVERITY_ERROR, "%s", err ? err : "fail decode");
        free(err);
        free(path);
        return rc;
    }
    rg_strlist warnings = {0};
    int checked = 0;
    const json_t *info = json_is_object(root) ? json_object_get(root, "info") : NULL;
    if (!json_is_object(root))
        rc = rg__diag_add(out, path, RG_INTEGRATION_SEVERITY_ERROR, "fail decode: not a JSON object");
    else if (!info || json_is_null(info) || (json_is_object(info) && json_object_size(info) == 0))
        rc = rg__diag_add(out, path, RG_INTEGRATION_SEVERITY_ERROR, "missing info");
    else if (!json_is_object(info))
        rc = rg__diag_add(out, path, RG_INTEGRATION_SEVERITY_ERROR, "info is not an object");
    else {
        const char *name;
        json_t *def;
        json_object_foreach((json_t *)info, name, def) {
            if ((rc = check_variable(path, name, def, &warnings, out)) != RG_OK)
                break;
        }
        if (rc == RG_OK)
            rc = check_lives_score(info, &warnings);
        checked = 1;
    }
    if (rc == RG_OK && checked)
        rc = rg__reconcile(ctx, path, "data.json", &warnings, out);
    rg__strlist_clear(&warnings);
    json_decref(root);
    free(path);
    return rc;
}
