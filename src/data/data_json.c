/* Reading JSON files of an integration with bounded size and a clear reason on failure. */
#define _POSIX_C_SOURCE 200809L
#include "data_internal.h"

#include <stdlib.h>
#include <string.h>

int rg__json_load_text(const char *text, size_t len, json_t **out, char **err)
{
    *out = NULL;
    if (err)
        *err = NULL;
    json_error_t je;
    json_t *j = json_loadb(text, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
    if (!j) {
        if (err)
            *err = rg__asprintf("fail decode: %s (line %d, column %d)", je.text, je.line, je.column);
        return rg__error(RG_ECORRUPT, "invalid JSON: %s (line %d, column %d)", je.text, je.line, je.column);
    }
    *out = j;
    return RG_OK;
}

int rg__json_load_file(const char *path, size_t max_size, json_t **out, char **err)
{
    *out = NULL;
    if (err)
        *err = NULL;
    uint8_t *data;
    size_t size;
    int rc = rg__read_file(path, max_size, &data, &size);
    if (rc != RG_OK) {
        if (err)
            *err = rg__asprintf("fail I/O: %s", rg_error_last());
        return rc;
    }
    rc = rg__json_load_text((const char *)data, size, out, err);
    free(data);
    if (rc != RG_OK)
        rg__error_context(rc, "%s", path);
    return rc;
}
