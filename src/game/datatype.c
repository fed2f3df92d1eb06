/* Data-type descriptors: parsing, decoding and encoding (docs/formats.md, "Data types"). */
#include "base/base.h"

#include <retrogym/datatype.h>
#include <retrogym/error.h>

#include <string.h>

static int host_is_little_endian(void)
{
    const uint16_t one = 1;
    return *(const uint8_t *)&one == 1;
}

/* The sigil is matched as a whole; anything unknown (`|`, `?`, ...) is "undefined", read as little-endian. */
static rg_endian endian_of(const char *sigil, size_t len)
{
    const int le = host_is_little_endian();
    if (len == 1) {
        switch (sigil[0]) {
        case '<': return RG_ENDIAN_LITTLE;
        case '>': return RG_ENDIAN_BIG;
        case '=': return le ? RG_ENDIAN_LITTLE : RG_ENDIAN_BIG;
        default: return RG_ENDIAN_LITTLE;
        }
    }
    if (len == 2) {
        if (sigil[0] == '>' && sigil[1] == '<')
            return RG_ENDIAN_MIXED_BL;
        if (sigil[0] == '<' && sigil[1] == '>')
            return RG_ENDIAN_MIXED_LB;
        if (sigil[0] == '>' && sigil[1] == '=')
            return le ? RG_ENDIAN_MIXED_BL : RG_ENDIAN_BIG;
        if (sigil[0] == '<' && sigil[1] == '=')
            return le ? RG_ENDIAN_LITTLE : RG_ENDIAN_MIXED_LB;
    }
    return RG_ENDIAN_LITTLE;
}

int rg_datatype_parse(const char *desc, rg_datatype *out)
{
    if (!desc || !out)
        return rg__error(RG_EINVAL, "no data type given");
    size_t len = strlen(desc);
    if (len < 3)
        return rg__error(RG_EINVAL, "data type \"%s\" is too short (want <endianness><format><bytes>)", desc);
    if (len > RG_DATATYPE_MAX_LEN)
        return rg__error(RG_EINVAL, "data type \"%.20s...\" is too long", desc);
    char w = desc[len - 1];
    if (w < '1' || w > '8')
        return rg__error(RG_EINVAL, "data type \"%s\": the width must be a digit 1-8", desc);
    memset(out, 0, sizeof *out);
    out->width = (unsigned)(w - '0');
    out->format = desc[len - 2];
    out->endian = endian_of(desc, len - 2);
    memcpy(out->repr, desc, len + 1);
    return RG_OK;
}

/* Significance rank of byte position k (0 = lowest address) for a width and byte order (docs/formats.md,
 * "Data types"). */
static unsigned rank_of(rg_endian e, unsigned w, unsigned k)
{
    switch (e) {
    case RG_ENDIAN_BIG: return w - 1 - k;
    case RG_ENDIAN_MIXED_BL: return (k + w - w / 2) % w;
    case RG_ENDIAN_MIXED_LB: return (w - 1 - k + w / 2) % w;
    default: return k;
    }
}

static uint64_t base_of(char format)
{
    return format == 'd' ? 100 : format == 'n' ? 10 : 256;
}

static uint64_t ipow(uint64_t b, unsigned e)
{
    uint64_t r = 1;
    while (e--)
        r *= b;
    return r;
}

int64_t rg_datatype_decode(const rg_datatype *t, const uint8_t *bytes)
{
    const uint64_t base = base_of(t->format);
    uint64_t v = 0;
    for (unsigned k = 0; k < t->width; k++) {
        uint8_t b = bytes[k];
        uint64_t digit;
        if (t->format == 'd')
            digit = (uint64_t)(b & 15) % 10 + 10 * ((uint64_t)(b >> 4) % 10);
        else if (t->format == 'n')
            digit = (uint64_t)(b & 15) % 10;
        else
            digit = b;
        v += digit * ipow(base, rank_of(t->endian, t->width, k));
    }
    if (t->format == 'i' && t->width < 8) {
        unsigned bits = t->width * 8;
        uint64_t sign = (uint64_t)1 << (bits - 1);
        v = (v ^ sign) - sign;
    }
    return (int64_t)v;
}

void rg_datatype_encode(const rg_datatype *t, int64_t value, uint8_t *bytes)
{
    const uint64_t base = base_of(t->format);
    const uint64_t u = (uint64_t)value;
    for (unsigned k = 0; k < t->width; k++) {
        unsigned r = rank_of(t->endian, t->width, k);
        /* base^r overflows 64 bits only for u/i at rank 8, which widths <= 8 never reach. */
        uint64_t q = u / ipow(base, r);
        if (t->format == 'd')
            bytes[k] = (uint8_t)((q % 10) | (((q / 10) % 10) << 4));
        else if (t->format == 'n')
            bytes[k] = (uint8_t)(q % 10);
        else
            bytes[k] = (uint8_t)(q & 0xff);
    }
}

int rg_datatype_is_valid(const char *desc, int *suspicious)
{
    if (suspicious)
        *suspicious = 0;
    if (!desc)
        return 0;
    size_t len = strlen(desc);
    if (len < 3 || len > 4)
        return 0;
    char f = desc[len - 2], w = desc[len - 1];
    if (!strchr("dinu", f) || f == '\0')
        return 0;
    if (len == 3 && desc[0] == '|')
        return w == '1';
    if (w < '2' || w > '8')
        return 0;
    int ok;
    if (len == 3)
        ok = desc[0] == '>' || desc[0] == '<' || desc[0] == '=';
    else
        ok = (desc[0] == '>' && (desc[1] == '<' || desc[1] == '=')) ||
             (desc[0] == '<' && (desc[1] == '>' || desc[1] == '=')) ||
             (desc[0] == '=' && (desc[1] == '>' || desc[1] == '<'));
    if (ok && suspicious)
        *suspicious = len == 4 || (f == 'd' && w >= '5');
    return ok;
}
