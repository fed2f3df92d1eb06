#include "json_util.h"

#include "base/base.h"

#include <math.h>

int rg__json_parse(const char *text, size_t len, json_t **out, const char *what)
{
    json_error_t err;
    json_t *root = json_loadb(text ? text : "", len, 0, &err);
    if (!root)
        return rg__error(RG_ECORRUPT, "%s is not valid JSON (line %d, column %d): %s", what, err.line, err.column,
                         err.text);
    if (!json_is_object(root)) {
        json_decref(root);
        return rg__error(RG_ECORRUPT, "%s is not a JSON object", what);
    }
    *out = root;
    return RG_OK;
}

int rg__json_u64(const json_t *j, uint64_t *out)
{
    if (json_is_integer(j)) {
        json_int_t v = json_integer_value(j);
        if (v < 0)
            return RG_EINVAL;
        *out = (uint64_t)v;
        return RG_OK;
    }
    if (json_is_real(j)) {
        double d = json_real_value(j);
        if (!(d >= 0) || d >= 18446744073709551616.0 || d != floor(d))
            return RG_EINVAL;
        *out = (uint64_t)d;
        return RG_OK;
    }
    return RG_EINVAL;
}

int rg__json_i64(const json_t *j, int64_t *out)
{
    if (json_is_integer(j)) {
        *out = (int64_t)json_integer_value(j);
        return RG_OK;
    }
    if (json_is_real(j)) {
        double d = json_real_value(j);
        if (!(d > -9223372036854775808.0 && d < 9223372036854775808.0))
            return RG_EINVAL;
        *out = (int64_t)d;
        return RG_OK;
    }
    return RG_EINVAL;
}

int rg__json_number(const json_t *j, double *out)
{
    if (!json_is_number(j))
        return RG_EINVAL;
    *out = json_number_value(j);
    return RG_OK;
}
