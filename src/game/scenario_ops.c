/* The operations of scenario variables (docs/formats.md, "Scenarios"). */
#include "base/base.h"

#include <retrogym/scenario.h>

#include <string.h>

static const char *const op_names[RG_OP_COUNT] = {
    "",          "equal",     "negative-equal", "not-equal", "less-than", "greater-than", "less-or-equal",
    "greater-or-equal", "nonzero", "zero", "positive", "negative", "sign",
};

int64_t rg_op_apply(rg_op op, int64_t v, int64_t r)
{
    switch (op) {
    case RG_OP_EQUAL: return v == r;
    case RG_OP_NEGATIVE_EQUAL: return v == (int64_t)(0 - (uint64_t)r);
    case RG_OP_NOT_EQUAL: return v != r;
    case RG_OP_LESS_THAN: return v < r;
    case RG_OP_GREATER_THAN: return v > r;
    case RG_OP_LESS_OR_EQUAL: return v <= r;
    case RG_OP_GREATER_OR_EQUAL: return v >= r;
    case RG_OP_NONZERO: return v != 0;
    case RG_OP_ZERO: return v == 0;
    case RG_OP_POSITIVE: return v > 0;
    case RG_OP_NEGATIVE: return v < 0;
    case RG_OP_SIGN: return (v > 0) - (v < 0);
    default: return v;
    }
}

const char *rg_op_name(rg_op op)
{
    return (unsigned)op < RG_OP_COUNT ? op_names[op] : "";
}

int rg_op_parse(const char *name, rg_op *out)
{
    if (!name || !out)
        return rg__error(RG_EINVAL, "rg_op_parse: NULL argument");
    for (int i = 1; i < RG_OP_COUNT; i++)
        if (strcmp(name, op_names[i]) == 0) {
            *out = (rg_op)i;
            return RG_OK;
        }
    *out = RG_OP_NOOP;
    return rg__error(RG_ENOTFOUND, "unknown operation \"%.40s\"", name);
}
