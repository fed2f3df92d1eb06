/* Fuzz target "datatype": the type-descriptor parser, the decoder and encoder (include/retrogym/datatype.h), and a
 * variable of that type read and written through a gamedata bound to a small block of memory.
 *
 * Input: the descriptor up to the first newline (at most 31 bytes), then up to 8 bytes decoded, 8 bytes of a value
 * to encode, one byte of address and one of options (mask, overlay); missing bytes read as zero.
 * Invariants checked: a descriptor the validator accepts parses; a parsed one keeps its width, format and text;
 * decode(encode(decode(b))) == decode(b); base-256 formats round-trip bytes exactly; encoding a value keeps it
 * modulo the format's range (BCD digits valid); a variable reads as decode & mask, fails exactly when its bytes
 * leave the block, and a failed write changes nothing. */
#include "fuzz.h"

#include <retrogym/datatype.h>
#include <retrogym/error.h>
#include <retrogym/gamedata.h>

#include <string.h>

static uint64_t range_of(const rg_datatype *t)
{
    uint64_t base = t->format == 'd' ? 100 : t->format == 'n' ? 10 : 256, r = 1;
    for (unsigned i = 0; i < t->width; i++)
        r *= base;
    return r; /* 0 for 256^8 (the whole 64 bits) */
}

static void check_codec(const rg_datatype *t, const uint8_t bytes[8], int64_t value)
{
    uint8_t enc[8], enc2[8];
    int64_t v = rg_datatype_decode(t, bytes);
    memset(enc, 0xEE, sizeof enc);
    rg_datatype_encode(t, v, enc);
    for (unsigned k = t->width; k < 8; k++)
        FUZZ_CHECK(enc[k] == 0xEE); /* nothing past the width is written */
    FUZZ_CHECK(rg_datatype_decode(t, enc) == v);
    int bcd = t->format == 'd' || t->format == 'n';
    if (!bcd)
        FUZZ_CHECK(memcmp(enc, bytes, t->width) == 0);

    rg_datatype_encode(t, value, enc2);
    for (unsigned k = 0; k < t->width; k++) {
        if (t->format == 'd')
            FUZZ_CHECK((enc2[k] & 15) <= 9 && (enc2[k] >> 4) <= 9);
        else if (t->format == 'n')
            FUZZ_CHECK(enc2[k] <= 9);
    }
    uint64_t range = range_of(t), u = (uint64_t)value;
    uint64_t want = range ? u % range : u;
    if (t->format == 'i' && t->width < 8) {
        uint64_t sign = (uint64_t)1 << (t->width * 8 - 1);
        want = (want ^ sign) - sign;
    }
    FUZZ_CHECK((uint64_t)rg_datatype_decode(t, enc2) == want);
}

static void check_variable(const char *desc, const rg_datatype *t, const uint8_t *mem_init, unsigned addr,
                           unsigned opts, int64_t value)
{
    rg_gamedata *gd;
    if (rg_gamedata_create(&gd) != RG_OK)
        return;
    uint8_t mem[16], before[16];
    memcpy(mem, mem_init, sizeof mem);
    uint64_t mask = (opts & 1) ? RG_MASK_ALL : ((uint64_t)value ^ 0x5A5A5A5A5A5A5A5Aull);
    unsigned overlay = (opts >> 1) & 3; /* 0, 1: none; 2: byte-swapped words; 3: odd, checked by the library */
    FUZZ_CHECK(rg_gamedata_set_variable(gd, "v", addr, desc, mask) == RG_OK);
    rg_mem_block block = {0, sizeof mem, mem};
    int brc = rg_gamedata_bind_blocks(gd, &block, 1, overlay);
    if (brc == RG_OK) {
        int fits = addr + t->width <= sizeof mem;
        int64_t got;
        int rc = rg_gamedata_get(gd, "v", &got);
        FUZZ_CHECK((rc == RG_OK) == fits || overlay > 1);
        if (rc == RG_OK && overlay <= 1)
            FUZZ_CHECK((uint64_t)got == ((uint64_t)rg_datatype_decode(t, mem + addr) & mask));
        rg_gamedata_update(gd);
        memcpy(before, mem, sizeof mem);
        rc = rg_gamedata_set(gd, "v", value);
        if (rc != RG_OK)
            FUZZ_CHECK(memcmp(before, mem, sizeof mem) == 0);
        else if (overlay <= 1 && (opts & 1))
            FUZZ_CHECK(rg_gamedata_get(gd, "v", &got) == RG_OK && got == rg_datatype_decode(t, mem + addr));
        rg_gamedata_update(gd);
        int64_t delta;
        rg_gamedata_delta(gd, "v", &delta);
    }
    rg_gamedata_free(gd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char desc[32];
    size_t n = 0;
    while (n < size && n < sizeof desc - 1 && data[n] != '\n')
        n++;
    memcpy(desc, data, n);
    desc[n] = '\0';
    size_t rest_at = n < size ? n + 1 : n;
    uint8_t tail[18] = {0};
    memcpy(tail, data + rest_at, size - rest_at < sizeof tail ? size - rest_at : sizeof tail);
    int64_t value;
    memcpy(&value, tail + 8, 8);
    unsigned addr = tail[16] % 20, opts = tail[17];

    int suspicious = -1;
    int valid = rg_datatype_is_valid(desc, &suspicious);
    FUZZ_CHECK(suspicious == 0 || suspicious == 1);
    FUZZ_CHECK(!suspicious || valid);
    rg_datatype t;
    int rc = rg_datatype_parse(desc, &t);
    if (valid)
        FUZZ_CHECK(rc == RG_OK);
    if (rc != RG_OK) {
        FUZZ_CHECK(rc == RG_EINVAL);
        return 0;
    }
    size_t len = strlen(desc);
    FUZZ_CHECK(len >= 3 && len <= RG_DATATYPE_MAX_LEN);
    FUZZ_CHECK(t.width >= 1 && t.width <= 8 && t.width == (unsigned)(desc[len - 1] - '0'));
    FUZZ_CHECK(t.format == desc[len - 2]);
    FUZZ_CHECK(strcmp(t.repr, desc) == 0);
    FUZZ_CHECK(t.endian >= RG_ENDIAN_LITTLE && t.endian <= RG_ENDIAN_MIXED_LB);

    check_codec(&t, tail, value);
    uint8_t mem[16];
    for (unsigned i = 0; i < sizeof mem; i++)
        mem[i] = (uint8_t)(tail[i % 8] ^ (i * 37));
    check_variable(desc, &t, mem, addr, opts, value);
    return 0;
}
