/* Data-type descriptors: every vector of docs/formats.md, "Data-type test vectors", the rank tables of "Data types",
 * parsing, validity, and encode-then-decode properties over every representable value. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static rg_datatype T(const char *desc)
{
    rg_datatype t;
    assert_int_equal(rg_datatype_parse(desc, &t), RG_OK);
    return t;
}

typedef struct decode_case {
    const char *bytes; /* hex, space separated */
    const char *type;
    int64_t value;
} decode_case;

static size_t hex_bytes(const char *hex, uint8_t *out)
{
    size_t n = 0;
    unsigned v;
    int used;
    while (sscanf(hex, "%2x%n", &v, &used) == 1) {
        out[n++] = (uint8_t)v;
        hex += used;
        while (*hex == ' ')
            hex++;
    }
    return n;
}

/* The decoding vectors of docs/formats.md, and more. */
static const decode_case decode_cases[] = {
    {"10", "|i1", 16}, {"10", "|u1", 16}, {"10", "|d1", 10}, {"10", "|n1", 0},
    {"80", "|i1", -128}, {"80", "|u1", 128}, {"80", "|d1", 80}, {"80", "|n1", 0},
    {"FF", "|i1", -1}, {"FF", "|u1", 255}, {"FF", "|d1", 55}, {"FF", "|n1", 5},
    {"08 88", ">u2", 0x888}, {"08 88", ">d2", 888}, {"08 88", ">n2", 88}, {"08 88", "<u2", 0x8808},
    {"08 88", "<i2", (int16_t)0x8808}, {"08 88", "<d2", 8808}, {"08 88", "<n2", 88},
    {"80 01", ">i2", (int16_t)0x8001}, {"80 01", ">d2", 8001}, {"80 01", ">n2", 1}, {"80 01", "<u2", 0x180},
    {"80 01", "<d2", 180}, {"80 01", "<n2", 10},
    {"00 00 01", ">u3", 1}, {"00 00 01", "<u3", 0x10000}, {"00 00 01", "<d3", 10000},
    {"00 00 00 01", ">u4", 1}, {"00 00 00 01", "<u4", 0x1000000}, {"00 00 00 01", "><u4", 0x100},
    {"00 00 00 01", "<>u4", 0x10000}, {"00 00 00 01", "<d4", 1000000}, {"00 00 00 01", "><d4", 100},
    {"00 00 00 01", "<>d4", 10000}, {"00 00 00 01", "<n4", 1000}, {"00 00 00 01", "><n4", 10},
    {"00 00 00 01", "<>n4", 100},
    {"00 00 00 80", "<i4", (int32_t)0x80000000}, {"00 00 00 80", "><u4", 0x8000}, {"00 00 00 80", "<>u4", 0x800000},
    {"00 00 00 00 80", "<i5", -0x8000000000LL}, {"00 00 00 00 80", "<u5", 0x8000000000LL},
    {"00 00 00 00 80", "<d5", 8000000000LL},
    /* sigils that read as little-endian or big on this (little-endian) host */
    {"01 02", "=u2", 0x0201}, {"01 02", "|u2", 0x0201}, {"01 02", "?u2", 0x0201}, {"01 02", "<=u2", 0x0201},
    {"01 02 03 04", ">=u4", 0x02010403}, {"01 02 03 04", "><u4", 0x02010403}, {"01 02 03 04", "<>u4", 0x03040102},
    /* formats other than u i d n behave like u */
    {"01 02", ">x2", 0x0102},
    /* full width values */
    {"FF FF FF FF FF FF FF FF", "<u8", -1}, {"FF FF FF FF FF FF FF 7F", "<i8", INT64_MAX},
    {"99 99 99 99 99 99 99 99", ">d8", 9999999999999999LL}, {"09 09 09 09 09 09 09 09", ">n8", 99999999},
};

static void decode_vectors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof decode_cases / sizeof *decode_cases; i++) {
        const decode_case *c = &decode_cases[i];
        uint8_t b[8] = {0};
        size_t n = hex_bytes(c->bytes, b);
        rg_datatype t = T(c->type);
        assert_int_equal(t.width, n);
        int64_t got = rg_datatype_decode(&t, b);
        if (got != c->value)
            fail_msg("decode %s as %s: got %lld, want %lld", c->bytes, c->type, (long long)got,
                     (long long)c->value);
    }
}

typedef struct encode_case {
    const char *type;
    int64_t value;
    const char *bytes;
} encode_case;

/* The encoding vectors of docs/formats.md, and more. */
static const encode_case encode_cases[] = {
    {"|d1", 0x10, "16"}, {"|n1", 16, "06"}, {"|d1", 80, "80"}, {"|d1", 0x80, "28"}, {"|n1", 10, "00"},
    {"|i1", -1, "FF"},
    {">d2", 110, "01 10"}, {"<d2", 110, "10 01"}, {">n2", 110, "01 00"}, {">d2", 1001, "10 01"},
    {">n2", 1001, "00 01"},
    {">i2", -256, "FF 00"}, {">i2", -32513, "80 FF"},
    {">u4", 0x01020304, "01 02 03 04"}, {"<u4", 0x01020304, "04 03 02 01"}, {"><u4", 0x01020304, "02 01 04 03"},
    {"<>u4", 0x01020304, "03 04 01 02"},
    {">d4", 0x1000004, "16 77 72 20"}, {">n4", 0x1000004, "07 02 02 00"}, {"><d4", 0x1000004, "77 16 20 72"},
    {"<>n4", 0x1000004, "02 00 07 02"},
    /* digits that do not fit are dropped */
    {"|u1", 0x1234, "34"}, {">d2", 123456, "34 56"},
};

static void encode_vectors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof encode_cases / sizeof *encode_cases; i++) {
        const encode_case *c = &encode_cases[i];
        uint8_t want[8] = {0}, got[8];
        memset(got, 0xEE, sizeof got);
        size_t n = hex_bytes(c->bytes, want);
        rg_datatype t = T(c->type);
        assert_int_equal(t.width, n);
        rg_datatype_encode(&t, c->value, got);
        if (memcmp(got, want, n) != 0)
            fail_msg("encode %lld as %s: got %02X %02X %02X %02X", (long long)c->value, c->type, got[0], got[1],
                     got[2], got[3]);
        assert_int_equal(got[n < 8 ? n : 7], n < 8 ? 0xEE : want[7]); /* nothing written past the width */
    }
}

/* docs/formats.md, "Data types", the rank table: significance ranks per byte position, seen by decoding a single 1
 * at each position. */
static void rank_tables(void **state)
{
    (void)state;
    static const struct { const char *sigil; unsigned width; unsigned ranks[8]; } cases[] = {
        {"<", 4, {0, 1, 2, 3}}, {">", 3, {2, 1, 0}}, {">", 8, {7, 6, 5, 4, 3, 2, 1, 0}},
        {"><", 2, {1, 0}}, {"><", 3, {2, 0, 1}}, {"><", 4, {2, 3, 0, 1}}, {"><", 6, {3, 4, 5, 0, 1, 2}},
        {"><", 8, {4, 5, 6, 7, 0, 1, 2, 3}},
        {"<>", 2, {0, 1}}, {"<>", 3, {0, 2, 1}}, {"<>", 4, {1, 0, 3, 2}}, {"<>", 6, {2, 1, 0, 5, 4, 3}},
        {"<>", 8, {3, 2, 1, 0, 7, 6, 5, 4}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char desc[8];
        snprintf(desc, sizeof desc, "%su%u", cases[i].sigil, cases[i].width);
        rg_datatype t = T(desc);
        for (unsigned k = 0; k < cases[i].width; k++) {
            uint8_t b[8] = {0};
            b[k] = 1;
            uint64_t want = (uint64_t)1 << (8 * cases[i].ranks[k]);
            if ((uint64_t)rg_datatype_decode(&t, b) != want)
                fail_msg("%s: byte %u should have rank %u", desc, k, cases[i].ranks[k]);
        }
    }
}

static void parse_rules(void **state)
{
    (void)state;
    rg_datatype t;
    assert_int_equal(rg_datatype_parse("|u1", &t), RG_OK);
    assert_int_equal(t.width, 1);
    assert_int_equal(t.format, 'u');
    assert_string_equal(t.repr, "|u1");
    assert_int_equal(rg_datatype_parse("<u3", &t), RG_OK);
    assert_int_equal(t.width, 3);
    assert_int_equal(rg_datatype_parse("?u4", &t), RG_OK);
    assert_int_equal(t.endian, RG_ENDIAN_LITTLE);
    assert_int_equal(rg_datatype_parse(">=d4", &t), RG_OK);
    assert_int_equal(t.endian, RG_ENDIAN_MIXED_BL);
    assert_int_equal(rg_datatype_parse("<=d4", &t), RG_OK);
    assert_int_equal(t.endian, RG_ENDIAN_LITTLE);
    assert_int_equal(rg_datatype_parse("=u2", &t), RG_OK);
    assert_int_equal(t.endian, RG_ENDIAN_LITTLE);
    /* what Gym Retro skips */
    static const char *const bad[] = {"", "u1", "|1", ">u9", ">u0", ">ux", ">u", "<<<<<<<<<<<<<<<<<<<<u2"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        if (rg_datatype_parse(bad[i], &t) != RG_EINVAL)
            fail_msg("\"%s\" should not parse", bad[i]);
        assert_non_null(strstr(rg_error_last(), "type") ? rg_error_last() : NULL);
    }
    assert_int_equal(rg_datatype_parse(NULL, &t), RG_EINVAL);
}

static void validator(void **state)
{
    (void)state;
    static const struct { const char *desc; int valid, suspicious; } cases[] = {
        {"|u1", 1, 0}, {"|d1", 1, 0}, {"|i1", 1, 0}, {"|n1", 1, 0}, {"|u2", 0, 0}, {">u2", 1, 0}, {"<d4", 1, 0},
        {"=u2", 1, 0}, {">u1", 0, 0}, {"><u4", 1, 1}, {"<>u4", 1, 1}, {">=u4", 1, 1}, {"<=u4", 1, 1},
        {"=>u4", 1, 1}, {"=<u4", 1, 1}, {">>u4", 0, 0}, {">d5", 1, 1}, {">d8", 1, 1}, {">d4", 1, 0},
        {">n8", 1, 0}, {">x4", 0, 0}, {">u9", 0, 0}, {"?u4", 0, 0}, {"u4", 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int s = -1;
        int v = rg_datatype_is_valid(cases[i].desc, &s);
        if (v != cases[i].valid || (v && s != cases[i].suspicious))
            fail_msg("%s: valid %d suspicious %d", cases[i].desc, v, s);
    }
}

/* Largest value representable for a type, as an unsigned count of values (0 = all 2^64). */
static uint64_t value_count(const rg_datatype *t)
{
    uint64_t base = t->format == 'd' ? 100 : t->format == 'n' ? 10 : 256;
    uint64_t n = 1;
    for (unsigned i = 0; i < t->width; i++) {
        if (n > UINT64_MAX / base)
            return 0;
        n *= base;
    }
    return n;
}

static int64_t nth_value(const rg_datatype *t, uint64_t k)
{
    if (t->format == 'i' && t->width < 8) {
        uint64_t half = (uint64_t)1 << (8 * t->width - 1);
        return (int64_t)k - (int64_t)half;
    }
    return (int64_t)k;
}

/* Property: for every representable value v of a type, decode(encode(v)) == v. Exhaustive for up to 2^16 values,
 * sampled (with the extremes) beyond. */
static void encode_decode_round_trip(void **state)
{
    (void)state;
    static const char *const sigils[] = {"<", ">", "><", "<>", "=", "|"};
    static const char formats[] = {'u', 'i', 'd', 'n'};
    uint64_t rng = 0x9E3779B97F4A7C15ull;
    for (size_t s = 0; s < sizeof sigils / sizeof *sigils; s++)
        for (size_t f = 0; f < sizeof formats; f++)
            for (unsigned w = 1; w <= 8; w++) {
                char desc[8];
                snprintf(desc, sizeof desc, "%s%c%u", sigils[s], formats[f], w);
                rg_datatype t = T(desc);
                uint64_t count = value_count(&t);
                uint64_t steps = count && count <= 65536 ? count : 4096;
                for (uint64_t i = 0; i < steps; i++) {
                    uint64_t k;
                    if (count && count <= 65536)
                        k = i;
                    else {
                        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
                        k = i == 0 ? 0 : i == 1 ? (count ? count - 1 : UINT64_MAX) : (count ? rng % count : rng);
                    }
                    int64_t v = nth_value(&t, k);
                    uint8_t b[8];
                    rg_datatype_encode(&t, v, b);
                    int64_t back = rg_datatype_decode(&t, b);
                    if (back != v)
                        fail_msg("%s: %lld encodes to a value that decodes as %lld", desc, (long long)v,
                                 (long long)back);
                }
            }
}

/* Decoding never depends on bytes past the width, and BCD digits A-F are taken mod 10. */
static void bcd_invalid_nybbles(void **state)
{
    (void)state;
    rg_datatype d = T(">d2"), n = T("<n2");
    uint8_t b[2] = {0xAB, 0xCD};
    assert_int_equal(rg_datatype_decode(&d, b), 1 * 100 + (3 + 10 * 2));
    assert_int_equal(rg_datatype_decode(&n, b), 1 + 3 * 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(decode_vectors), cmocka_unit_test(encode_vectors),
        cmocka_unit_test(rank_tables),    cmocka_unit_test(parse_rules),
        cmocka_unit_test(validator),      cmocka_unit_test(encode_decode_round_trip),
        cmocka_unit_test(bcd_invalid_nybbles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
