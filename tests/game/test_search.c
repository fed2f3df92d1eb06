#define _GNU_SOURCE
/* Memory search (include/retrogym/search.h): the table of value and delta cases (docs/search.md), the fast first
 * round against a plain enumeration of every (address, transform, type), overlays, a 512 KiB space, saving and
 * loading, and every bad saved-search path. */
#include "test_support.h"

#include <retrogym/search.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BASE 0x100
static uint8_t mem[8];

static rg_gamedata *bind_mem(unsigned word)
{
    rg_gamedata *gd;
    assert_int_equal(rg_gamedata_create(&gd), RG_OK);
    rg_mem_block b = {BASE, sizeof mem, mem};
    assert_int_equal(rg_gamedata_bind_blocks(gd, &b, 1, word), RG_OK);
    return gd;
}

/* Fills mem with 0xEE and puts hex bytes at offset at. */
static void put(unsigned at, const char *hex)
{
    memset(mem, 0xEE, sizeof mem);
    for (unsigned i = 0; hex[2 * i]; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        mem[at + i] = (uint8_t)v;
    }
}

static void set_types(rg_searchset *set, const char *list)
{
    char buf[256];
    const char *t[64];
    size_t n = 0;
    snprintf(buf, sizeof buf, "%s", list);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
        t[n++] = tok;
    assert_int_equal(rg_searchset_set_types(set, t, n), RG_OK);
}

/* The results as "addr:type:mult:div:bias" joined by spaces, in the search's order. */
static void results_str(rg_searchset *set, const char *name, char *out, size_t cap)
{
    rg_search_result r[64];
    size_t n;
    assert_int_equal(rg_search_results(set, name, 0, r, 64, &n), RG_OK);
    out[0] = 0;
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(out);
        snprintf(out + l, cap - l, "%s%llx:%s:%lld:%lld:%lld", i ? " " : "", (unsigned long long)r[i].address,
                 r[i].type.repr, (long long)r[i].mult, (long long)r[i].div, (long long)r[i].bias);
    }
}

typedef struct value_case {
    const char *what;
    unsigned at;
    const char *bytes;
    const char *types;
    int64_t value;
    const char *expect;
} value_case;

static const value_case value_cases[] = {
    {"exact", 0, "05", "|u1", 5, "100:|u1:1:1:0"},
    {"bias +1 (memory holds v+1)", 0, "06", "|u1", 5, "100:|u1:1:1:1"},
    {"bias -1 (memory holds v-1)", 0, "04", "|u1", 5, "100:|u1:1:1:-1"},
    {"mult 2", 0, "0a", "|u1", 5, "100:|u1:2:1:0"},
    {"mult 4", 0, "14", "|u1", 5, "100:|u1:4:1:0"},
    {"div 10", 0, "0c", "|u1", 120, "100:|u1:1:10:0"},
    {"div 100", 0, "01", "|u1", 100, "100:|u1:1:100:0"},
    {"div 16", 0, "03", "|u1", 48, "100:|u1:1:16:0"},
    {"div 256 (16^2)", 0, "02", "|u1", 512, "100:|u1:1:256:0"},
    {"BCD byte", 0, "12", "|u1 |d1", 12, "100:|d1:1:1:0"},
    {"BCD with div 100", 0, "0012", ">d2", 1200, "100:>d2:1:100:0"},
    {"big-endian 16-bit", 0, "012c", "<u2 >u2", 300, "100:>u2:1:1:0"},
    {"little-endian 16-bit", 0, "2c01", "<u2 >u2", 300, "100:<u2:1:1:0"},
    {"negative 8-bit", 0, "ff", "|u1 |i1", -1, "100:|u1:1:1:0 100:|i1:1:1:0"},
    {"negative 16-bit", 0, "ff38", ">i2 >u2 |i1", -200, "100:>i2:1:1:0 100:>u2:1:1:0"},
    {"24-bit", 0, "0186a0", ">u3 <u3", 100000, "100:>u3:1:1:0"},
    {"24-bit BCD", 0, "123456", ">d3", 123456, "100:>d3:1:1:0"},
    {"24-bit low-nybble BCD", 0, "010203", ">n3", 123, "100:>n3:1:1:0"},
    {"32-bit", 0, "0001e240", ">u4 <u4", 123456, "100:>u4:1:1:0"},
    {"middle-endian 32-bit", 0, "010040e2", "><u4 <>u4 >u4", 123456, "100:><u4:1:1:0"},
    {"misaligned", 3, "012c", ">u2", 300, "103:>u2:1:1:0"},
    {"big-endian widenings", 0, "00000007", "|u1 >u2 >u4", 7, "100:>u4:1:1:0 102:>u2:1:1:0 103:|u1:1:1:0"},
    {"little-endian widenings", 0, "07000000", "|u1 <u2 <u4", 7, "100:|u1:1:1:0 100:<u2:1:1:0 100:<u4:1:1:0"},
    {"zero: identity only", 0, "00", "|u1", 0, "100:|u1:1:1:0"},
    {"low-nybble BCD ignores the high nybble", 0, "f1f3", ">n2", 13, "100:>n2:1:1:0"},
    {"BCD nybbles above 9 read mod 10", 0, "ff", "|d1", 55, "100:|d1:1:1:0"},
    {"signed 32-bit", 0, "fffffc18", ">i4", -1000, "100:>i4:1:1:0"},
    {"nothing", 0, "", "|u1 >u2", 7, ""},
};

static void value_table(void **state)
{
    (void)state;
    rg_gamedata *gd = bind_mem(1);
    char got[4096];
    for (size_t i = 0; i < sizeof value_cases / sizeof value_cases[0]; i++) {
        const value_case *c = &value_cases[i];
        rg_searchset *set;
        assert_int_equal(rg_searchset_create(&set), RG_OK);
        set_types(set, c->types);
        put(c->at, c->bytes);
        assert_int_equal(rg_search_value(set, "s", gd, c->value), RG_OK);
        results_str(set, "s", got, sizeof got);
        if (strcmp(got, c->expect) != 0)
            fail_msg("case \"%s\": got \"%s\", want \"%s\"", c->what, got, c->expect);
        uint64_t n;
        assert_int_equal(rg_search_result_count(set, "s", &n), RG_OK);
        size_t words = 0;
        for (const char *p = c->expect; *p; p++)
            words += *p == ' ';
        assert_int_equal(n, c->expect[0] ? words + 1 : 0);
        rg_searchset_free(set);
    }
    rg_gamedata_free(gd);
}

static rg_searchset *typed_set(const char *types)
{
    rg_searchset *set;
    assert_int_equal(rg_searchset_create(&set), RG_OK);
    set_types(set, types);
    return set;
}

static void expect(rg_searchset *set, const char *want)
{
    char got[4096];
    results_str(set, "s", got, sizeof got);
    if (strcmp(got, want) != 0)
        fail_msg("got \"%s\", want \"%s\"", got, want);
}

static void narrowing(void **state)
{
    (void)state;
    rg_gamedata *gd = bind_mem(1);
    rg_searchset *set = typed_set("|u1 |d1");
    put(0, "05");
    assert_int_equal(rg_search_value(set, "s", gd, 5), RG_OK);
    expect(set, "100:|u1:1:1:0 100:|d1:1:1:0");
    const char *types[4];
    size_t nt;
    assert_int_equal(rg_search_types(set, "s", types, 4, &nt), RG_OK);
    assert_int_equal(nt, 2);
    put(0, "10");
    assert_int_equal(rg_search_value(set, "s", gd, 10), RG_OK);
    expect(set, "100:|d1:1:1:0"); /* the type list narrows to |d1 */
    assert_int_equal(rg_search_types(set, "s", types, 4, &nt), RG_OK);
    assert_int_equal(nt, 1);
    assert_string_equal(types[0], "|d1");
    int unique;
    rg_search_result r;
    assert_int_equal(rg_search_unique(set, "s", &unique, &r), RG_OK);
    assert_true(unique);
    assert_int_equal(r.address, 0x100);
    unsigned rounds;
    assert_int_equal(rg_search_rounds(set, "s", &rounds), RG_OK);
    assert_int_equal(rounds, 2);
    rg_searchset_free(set);

    /* a transform stays with its candidate: mult 2 holds for 5 then 7 (memory 10, 14), dies on 8 (memory 15) */
    set = typed_set("|u1");
    put(0, "0a");
    assert_int_equal(rg_search_value(set, "s", gd, 5), RG_OK);
    expect(set, "100:|u1:2:1:0");
    put(0, "0e");
    assert_int_equal(rg_search_value(set, "s", gd, 7), RG_OK);
    expect(set, "100:|u1:2:1:0");
    put(0, "0f");
    assert_int_equal(rg_search_value(set, "s", gd, 8), RG_OK);
    expect(set, "");
    assert_int_equal(rg_search_unique(set, "s", &unique, NULL), RG_OK);
    assert_false(unique);
    rg_searchset_free(set);

    /* unique: every result ends at the same byte (big-endian widenings); first is the widest */
    set = typed_set("|u1 >u2 >u4");
    put(0, "00000007");
    assert_int_equal(rg_search_value(set, "s", gd, 7), RG_OK);
    assert_int_equal(rg_search_unique(set, "s", &unique, &r), RG_OK);
    assert_true(unique);
    assert_string_equal(r.type.repr, ">u4");
    assert_int_equal(r.address, 0x100);
    /* not unique: two places */
    put(0, "07000007");
    rg_searchset_free(set);
    set = typed_set("|u1");
    assert_int_equal(rg_search_value(set, "s", gd, 7), RG_OK);
    assert_int_equal(rg_search_unique(set, "s", &unique, NULL), RG_OK);
    assert_false(unique);
    rg_searchset_free(set);
    rg_gamedata_free(gd);
}

typedef struct delta_case {
    const char *what, *before, *after, *types, *op;
    int64_t ref;
    const char *expect;
} delta_case;

static const delta_case delta_cases[] = {
    {"increased by 1", "05", "06", "|u1", "equal", 1, "100:|u1:1:1:0"},
    {"decreased by 2", "05", "03", "|u1", "negative-equal", 2, "100:|u1:1:1:0"},
    {"increased", "05", "09", "|u1", "positive", 0, "100:|u1:1:1:0"},
    {"decreased", "05", "01", "|u1", "negative", 0, "100:|u1:1:1:0"},
    {"changed", "0005", "0105", "|u1", "not-equal", 0, "100:|u1:1:1:0"},
    {"across a byte boundary", "00ff", "0100", ">u2 |u1", "equal", 1, "100:>u2:1:1:0 100:|u1:1:1:0"},
    {"across a byte boundary, down", "00ff", "0100", ">u2 |u1", "negative", 0, "101:>u2:1:1:0 101:|u1:1:1:0"},
    {"less-than", "10", "05", "|u1", "less-than", -10, "100:|u1:1:1:0"},
    {"greater-than", "10", "30", "|u1", "greater-than", 16, "100:|u1:1:1:0"},
    {"less-or-equal", "10", "05", "|i1", "less-or-equal", -11, "100:|i1:1:1:0"},
    {"greater-or-equal", "10", "20", "|u1", "greater-or-equal", 16, "100:|u1:1:1:0"},
    {"signed wrap", "01", "ff", "|u1 |i1", "equal", -2, "100:|i1:1:1:0"},
    {"BCD delta", "0099", "0100", ">d2 >u2", "equal", 1, "100:>d2:1:1:0"},
};

static rg_op op_of(const char *name)
{
    rg_op op;
    assert_int_equal(rg_op_parse(name, &op), RG_OK);
    return op;
}

static void delta_table(void **state)
{
    (void)state;
    rg_gamedata *gd = bind_mem(1);
    char got[4096];
    for (size_t i = 0; i < sizeof delta_cases / sizeof delta_cases[0]; i++) {
        const delta_case *c = &delta_cases[i];
        rg_searchset *set = typed_set(c->types);
        put(0, c->before);
        /* a first delta round is the baseline: every (address, type) */
        assert_int_equal(rg_search_delta(set, "s", gd, op_of("equal"), 0), RG_OK);
        uint64_t n;
        assert_int_equal(rg_search_result_count(set, "s", &n), RG_OK);
        uint64_t all = 0;
        for (const char *p = c->types; *p; p++)
            if (*p >= '1' && *p <= '8')
                all += sizeof mem - (size_t)(*p - '0') + 1;
        assert_int_equal(n, all);
        put(0, c->after);
        assert_int_equal(rg_search_delta(set, "s", gd, op_of(c->op), c->ref), RG_OK);
        results_str(set, "s", got, sizeof got);
        if (strcmp(got, c->expect) != 0)
            fail_msg("case \"%s\": got \"%s\", want \"%s\"", c->what, got, c->expect);
        rg_searchset_free(set);
    }
    rg_gamedata_free(gd);
}

static void chained(void **state)
{
    (void)state;
    rg_gamedata *gd = bind_mem(1);
    /* value, then deltas (on the decoded value, the transform kept), then value again */
    rg_searchset *set = typed_set("|u1 >u2");
    put(0, "0a0a");
    assert_int_equal(rg_search_value(set, "s", gd, 5), RG_OK);
    expect(set, "100:|u1:2:1:0 101:|u1:2:1:0");
    mem[1] = 0x0c;
    assert_int_equal(rg_search_delta(set, "s", gd, op_of("equal"), 2), RG_OK);
    expect(set, "101:|u1:2:1:0");
    assert_int_equal(rg_search_delta(set, "s", gd, op_of("equal"), 0), RG_OK); /* unchanged */
    expect(set, "101:|u1:2:1:0");
    assert_int_equal(rg_search_value(set, "s", gd, 6), RG_OK);
    expect(set, "101:|u1:2:1:0");
    rg_searchset_free(set);

    /* delta first, then a value round keeps the identity only */
    set = typed_set("|u1");
    put(0, "05");
    assert_int_equal(rg_search_delta(set, "s", gd, op_of("equal"), 0), RG_OK);
    mem[0] = 6;
    assert_int_equal(rg_search_value(set, "s", gd, 6), RG_OK);
    expect(set, "100:|u1:1:1:0");
    rg_searchset_free(set);
    rg_gamedata_free(gd);
}

/* The Genesis overlay: memory native words, searched as the 68000 sees it. */
static void overlay(void **state)
{
    (void)state;
    rg_gamedata *gd = bind_mem(2);
    const rg_system_info *sys;
    assert_int_equal(rg_system_find(&sys, "Genesis"), RG_OK);
    assert_true(sys->n_search_types > 0);
    rg_searchset *set;
    assert_int_equal(rg_searchset_create(&set), RG_OK);
    assert_int_equal(rg_searchset_set_types(set, sys->search_types, sys->n_search_types), RG_OK);
    memset(mem, 0xEE, sizeof mem);
    mem[2] = 0x2c; /* native little-endian word at 0x102: 0x012c, big-endian as the CPU sees it: 01 2c */
    mem[3] = 0x01;
    assert_int_equal(rg_search_value(set, "s", gd, 300), RG_OK);
    expect(set, "102:>u2:1:1:0 102:>i2:1:1:0");
    rg_searchset_free(set);
    rg_gamedata_free(gd);
}

/* ---- the first round against a plain enumeration ---- */

static int64_t want_x(unsigned tr, int64_t v, int *ok)
{
    int64_t m = 1, d = 1, b = 0;
    if (tr >= 1 && tr <= 18)
        for (unsigned k = 0; k < tr; k++)
            d *= 10;
    else if (tr >= 19 && tr <= 33)
        for (unsigned k = 0; k < tr - 18; k++)
            d *= 16;
    else if (tr == 34)
        m = 2;
    else if (tr == 35)
        m = 4;
    else if (tr == 36)
        b = 1;
    else if (tr == 37)
        b = -1;
    *ok = 1;
    if (d != 1) {
        *ok = v != 0 && v % d == 0;
        return v / d;
    }
    if (v == 0 && m != 1)
        *ok = 0;
    return (v + b) * m;
}

static int plain_match(const rg_datatype *t, int64_t x, int64_t e)
{
    if (x == e)
        return 1;
    int unsig = t->format != 'i' && t->format != 'd' && t->format != 'n';
    if (e < 0 && unsig && (t->width == 1 || t->width == 2 || t->width == 4) &&
        e >= -((int64_t)1 << (8 * t->width - 1)))
        return (uint64_t)x == ((uint64_t)e & ((((uint64_t)1) << (8 * t->width)) - 1));
    return 0;
}

static void against_enumeration(void **state)
{
    (void)state;
    static uint8_t big[1500];
    rg_gamedata *gd;
    assert_int_equal(rg_gamedata_create(&gd), RG_OK);
    rg_mem_block blocks[2] = {{0x1000, 1000, big}, {0x8000, 500, big + 1000}};
    assert_int_equal(rg_gamedata_bind_blocks(gd, blocks, 2, 1), RG_OK);
    size_t nd = rg_search_default_type_count();
    assert_int_equal(nd, 44);
    rg_datatype types[44];
    for (size_t i = 0; i < nd; i++)
        assert_int_equal(rg_datatype_parse(rg_search_default_type(i), &types[i]), RG_OK);
    const int64_t values[] = {0, 1, 7, 10, 99, 100, 255, 256, 1000, 1200, 4096, -1, -300, 123456};
    srand(7);
    rg_search_result *res = malloc(200000 * sizeof *res);
    size_t total = 0;
    for (size_t vi = 0; vi < sizeof values / sizeof values[0]; vi++) {
        int64_t v = values[vi];
        for (size_t i = 0; i < sizeof big; i++) /* small bytes and zeros, so many types match */
            big[i] = (uint8_t)(rand() % 4 == 0 ? 0 : rand() % 3 == 0 ? rand() % 16 : rand());
        rg_searchset *set;
        assert_int_equal(rg_searchset_create(&set), RG_OK);
        assert_int_equal(rg_search_value(set, "s", gd, v), RG_OK);
        size_t n;
        assert_int_equal(rg_search_results(set, "s", 0, res, 200000, &n), RG_OK);
        /* the wanted values, first transform of each value */
        int64_t wx[38];
        unsigned wtr[38], nw = 0;
        for (unsigned tr = 0; tr < 38; tr++) {
            int ok;
            int64_t x = want_x(tr, v, &ok);
            if (!ok || (v == 0 && tr != 0 && tr < 36))
                continue;
            int dup = 0;
            for (unsigned k = 0; k < nw; k++)
                dup |= wx[k] == x;
            if (!dup)
                wx[nw] = x, wtr[nw++] = tr;
        }
        size_t k = 0;
        for (size_t bi = 0; bi < 2; bi++)
            for (size_t o = 0; o < blocks[bi].size; o++)
                for (unsigned tr = 0; tr < 38; tr++)
                    for (size_t ti = 0; ti < nd; ti++) {
                        if (o + types[ti].width > blocks[bi].size)
                            continue;
                        int64_t x = rg_datatype_decode(&types[ti], blocks[bi].data + o);
                        unsigned first = 99;
                        for (unsigned w = 0; w < nw && first == 99; w++)
                            if (plain_match(&types[ti], x, wx[w]))
                                first = wtr[w];
                        if (first != tr)
                            continue;
                        if (k >= n)
                            fail_msg("v=%lld: the search misses %llx %s", (long long)v,
                                     (unsigned long long)(blocks[bi].base + o), types[ti].repr);
                        if (res[k].address != blocks[bi].base + o || strcmp(res[k].type.repr, types[ti].repr) != 0)
                            fail_msg("v=%lld: result %zu is %llx %s, want %llx %s", (long long)v, k,
                                     (unsigned long long)res[k].address, res[k].type.repr,
                                     (unsigned long long)(blocks[bi].base + o), types[ti].repr);
                        k++;
                    }
        assert_int_equal(k, n);
        total += n;
        rg_searchset_free(set);
    }
    assert_true(total > 1000);
    free(res);
    rg_gamedata_free(gd);
}

/* A 512 KiB space with all 44 types; narrowing to the planted value, memory reported and bounded. */
static void big_space(void **state)
{
    (void)state;
    size_t size = 512 * 1024;
    uint8_t *ram = malloc(size);
    for (size_t i = 0; i < size; i++)
        ram[i] = (uint8_t)(i * 2654435761u >> 13);
    rg_gamedata *gd;
    assert_int_equal(rg_gamedata_create(&gd), RG_OK);
    rg_mem_block b = {0x02000000, size, ram};
    assert_int_equal(rg_gamedata_bind_blocks(gd, &b, 1, 1), RG_OK);
    rg_searchset *set;
    assert_int_equal(rg_searchset_create(&set), RG_OK);
    uint64_t at = 0x3A5F1;
    memcpy(ram + at, "\x00\x01\xe2\x40", 4); /* >u4 123456 */
    assert_int_equal(rg_search_value(set, "score", gd, 123456), RG_OK);
    uint64_t n1, n2;
    assert_int_equal(rg_search_result_count(set, "score", &n1), RG_OK);
    size_t bytes;
    assert_int_equal(rg_search_memory(set, "score", &bytes), RG_OK);
    assert_true(bytes < 64u << 20);
    memcpy(ram + at, "\x00\x01\xe2\xa4", 4); /* 123556 */
    assert_int_equal(rg_search_value(set, "score", gd, 123556), RG_OK);
    assert_int_equal(rg_search_result_count(set, "score", &n2), RG_OK);
    assert_true(n2 >= 1 && n2 <= n1);
    int unique;
    rg_search_result r;
    assert_int_equal(rg_search_unique(set, "score", &unique, &r), RG_OK);
    assert_true(unique);
    assert_int_equal(r.address, 0x02000000 + at);
    assert_string_equal(r.type.repr, ">u4");
    assert_int_equal(rg_search_memory(set, "score", &bytes), RG_OK);
    assert_true(bytes < size + 4096); /* the memory copy and a short list */
    /* a delta search over everything */
    assert_int_equal(rg_search_delta(set, "lives", gd, op_of("equal"), 0), RG_OK);
    ram[100] ^= 0x40;
    assert_int_equal(rg_search_delta(set, "lives", gd, op_of("not-equal"), 0), RG_OK);
    assert_int_equal(rg_search_result_count(set, "lives", &n1), RG_OK);
    assert_true(n1 > 0 && n1 < 44 * 8);
    rg_searchset_free(set);
    rg_gamedata_free(gd);
    free(ram);
}

static void names_and_errors(void **state)
{
    (void)state;
    rg_gamedata *gd = bind_mem(1);
    rg_searchset *set;
    assert_int_equal(rg_searchset_create(&set), RG_OK);
    put(0, "05");
    assert_int_equal(rg_search_value(set, "b", gd, 5), RG_OK);
    assert_int_equal(rg_search_value(set, "a", gd, 5), RG_OK);
    assert_int_equal(rg_searchset_count(set), 2);
    assert_string_equal(rg_searchset_name_at(set, 0), "a");
    assert_null(rg_searchset_name_at(set, 2));
    assert_int_equal(rg_searchset_remove(set, "a"), RG_OK);
    assert_int_equal(rg_searchset_remove(set, "a"), RG_ENOTFOUND);
    assert_int_equal(rg_search_result_count(set, "zz", NULL), RG_ENOTFOUND);
    assert_non_null(strstr(rg_error_last(), "zz"));
    assert_int_equal(rg_search_value(set, "", gd, 5), RG_EINVAL);
    char longname[300];
    memset(longname, 'n', sizeof longname - 1);
    longname[sizeof longname - 1] = 0;
    assert_int_equal(rg_search_value(set, longname, gd, 5), RG_EINVAL);
    assert_int_equal(rg_search_delta(set, "b", gd, (rg_op)99, 0), RG_EINVAL);
    assert_int_equal(rg_searchset_count(set), 1);
    const char *bad[] = {"|u1", "x"};
    assert_int_equal(rg_searchset_set_types(set, bad, 2), RG_EINVAL);
    rg_gamedata *unbound;
    assert_int_equal(rg_gamedata_create(&unbound), RG_OK);
    assert_int_equal(rg_search_value(set, "c", unbound, 5), RG_EMISUSE);
    assert_int_equal(rg_searchset_count(set), 1);
    /* the address space changed under a search */
    static uint8_t other[4];
    rg_mem_block b = {0x200, sizeof other, other};
    assert_int_equal(rg_gamedata_bind_blocks(unbound, &b, 1, 1), RG_OK);
    assert_int_equal(rg_search_value(set, "b", unbound, 5), RG_EMISUSE);
    assert_non_null(strstr(rg_error_last(), "address space changed"));
    rg_gamedata_free(unbound);
    rg_searchset_free(set);
    rg_gamedata_free(gd);
}

/* ---- saving and loading ---- */

static char *saved(rg_searchset *set)
{
    char *text;
    assert_int_equal(rg_searchset_save_string(set, &text), RG_OK);
    return text;
}

static void save_load(void **state)
{
    (void)state;
    rg_gamedata *gd = bind_mem(1);
    rg_searchset *set = typed_set("|u1 >u2 |d1");
    put(0, "0005");
    assert_int_equal(rg_search_value(set, "list", gd, 5), RG_OK);     /* few: a list */
    assert_int_equal(rg_search_delta(set, "all", gd, op_of("equal"), 0), RG_OK); /* baseline */
    rg_searchset_free(set);
    /* bitmaps: a search over many candidates */
    static uint8_t zeros[4096];
    rg_gamedata *gz;
    assert_int_equal(rg_gamedata_create(&gz), RG_OK);
    rg_mem_block zb = {0x4000, sizeof zeros, zeros};
    assert_int_equal(rg_gamedata_bind_blocks(gz, &zb, 1, 1), RG_OK);
    set = typed_set("|u1 >u2 |d1");
    put(0, "0005");
    assert_int_equal(rg_search_value(set, "list", gd, 5), RG_OK);
    assert_int_equal(rg_search_delta(set, "all", gd, op_of("equal"), 0), RG_OK);
    assert_int_equal(rg_search_value(set, "zero", gz, 0), RG_OK);
    uint64_t nz;
    assert_int_equal(rg_search_result_count(set, "zero", &nz), RG_OK);
    assert_int_equal(nz, 4096 + 4095 + 4096);

    char *text = saved(set);
    char path[] = "/tmp/rg_search_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(rg_searchset_save_file(set, path), RG_OK);
    rg_searchset *back;
    assert_int_equal(rg_searchset_create(&back), RG_OK);
    assert_int_equal(rg_searchset_load_file(back, path), RG_OK);
    unlink(path);
    char *again = saved(back);
    assert_string_equal(text, again);
    free(again);
    /* a loaded search goes on */
    assert_int_equal(rg_search_result_count(back, "zero", &nz), RG_OK);
    assert_int_equal(nz, 4096 + 4095 + 4096);
    zeros[10] = 1;
    assert_int_equal(rg_search_delta(back, "zero", gz, op_of("equal"), 1), RG_OK);
    assert_int_equal(rg_search_result_count(back, "zero", &nz), RG_OK);
    assert_int_equal(nz, 3); /* |u1 and |d1 at 10, >u2 at 9 */
    zeros[10] = 0;
    mem[1] = 6;
    assert_int_equal(rg_search_delta(back, "all", gd, op_of("equal"), 1), RG_OK);
    char got[512];
    results_str(back, "all", got, sizeof got);
    assert_string_equal(got, "100:>u2:1:1:0 101:|u1:1:1:0 101:|d1:1:1:0");
    assert_int_equal(rg_search_value(back, "list", gd, 6), RG_OK);
    results_str(back, "list", got, sizeof got);
    assert_string_equal(got, "100:>u2:1:1:0 101:|u1:1:1:0 101:|d1:1:1:0");
    rg_searchset_free(back);
    free(text);
    rg_searchset_free(set);
    rg_gamedata_free(gz);
    rg_gamedata_free(gd);
}

typedef struct bad_file {
    const char *json, *error;
} bad_file;

#define HEAD "{\"format\":\"retrogym-searches\",\"version\":1,\"searches\":["
#define S1 "{\"name\":\"s\",\"types\":[\"|u1\",\">u2\"],\"rounds\":1,"
#define B1 "\"blocks\":[{\"address\":256,\"size\":2,\"memory\":\"0005\"}]"

static const bad_file bad_files[] = {
    {"not json", "not valid JSON"},
    {"[]", "not a JSON object"},
    {"{\"format\":\"x\",\"version\":1,\"searches\":[]}", "\"format\" must be"},
    {"{\"format\":\"retrogym-searches\",\"version\":2,\"searches\":[]}", "unknown \"version\""},
    {"{\"format\":\"retrogym-searches\",\"version\":1}", "\"searches\" must be an array"},
    {HEAD "3]}", "search 0 is not an object"},
    {HEAD "{\"name\":\"\",\"types\":[\"|u1\"],\"rounds\":1,\"state\":\"all\"," B1 "}]}", "\"name\" must be"},
    {HEAD "{\"name\":\"s\",\"types\":[],\"rounds\":1,\"state\":\"all\"," B1 "}]}", "\"types\" must be an array"},
    {HEAD "{\"name\":\"s\",\"types\":[\"zz\"],\"rounds\":1,\"state\":\"all\"," B1 "}]}", "not a data type"},
    {HEAD "{\"name\":\"s\",\"types\":[\"|u1\",\"|u1\"],\"rounds\":1,\"state\":\"all\"," B1 "}]}", "listed twice"},
    {HEAD S1 "\"state\":\"all\",\"rounds\":0," B1 "}]}", "\"rounds\" must be"},
    {HEAD S1 "\"state\":\"maybe\"," B1 "}]}", "\"state\" must be"},
    {HEAD S1 "\"state\":\"all\",\"blocks\":[]}]}", "\"blocks\" must be an array"},
    {HEAD S1 "\"state\":\"all\",\"blocks\":[{\"address\":-1,\"size\":2,\"memory\":\"0005\"}]}]}", "non-negative"},
    {HEAD S1 "\"state\":\"all\",\"blocks\":[{\"address\":0,\"size\":2,\"memory\":\"000\"}]}]}", "hex digits"},
    {HEAD S1 "\"state\":\"all\",\"blocks\":[{\"address\":0,\"size\":2,\"memory\":\"00zz\"}]}]}", "hex digits"},
    {HEAD S1 "\"state\":\"all\",\"blocks\":[{\"address\":0,\"size\":2,\"memory\":\"0000\"},"
             "{\"address\":1,\"size\":2,\"memory\":\"0000\"}]}]}", "must not overlap"},
    {HEAD S1 "\"state\":\"all\",\"blocks\":[{\"address\":0,\"size\":100000000,\"memory\":\"\"}]}]}", "more than"},
    {HEAD S1 "\"state\":\"list\"," B1 ",\"results\":[[256,\"|u1\",1,1]]}]}", "must be [address"},
    {HEAD S1 "\"state\":\"list\"," B1 ",\"results\":[[256,\"<u4\",1,1,0]]}]}", "not one of the search's types"},
    {HEAD S1 "\"state\":\"list\"," B1 ",\"results\":[[256,\"|u1\",3,1,0]]}]}", "not a known transform"},
    {HEAD S1 "\"state\":\"list\"," B1 ",\"results\":[[999,\"|u1\",1,1,0]]}]}", "in none of the blocks"},
    {HEAD S1 "\"state\":\"list\"," B1 ",\"results\":[[257,\">u2\",1,1,0]]}]}", "does not fit"},
    {HEAD S1 "\"state\":\"list\"," B1 ",\"results\":[[257,\"|u1\",1,1,0],[256,\"|u1\",1,1,0]]}]}", "in order"},
    {HEAD S1 "\"state\":\"list\"," B1 ",\"results\":[[256,\"|u1\",1,1,0],[256,\"|u1\",1,1,0]]}]}", "in order"},
    {HEAD S1 "\"state\":\"list\"," B1 "}]}", "\"results\" must be an array"},
    {HEAD S1 "\"state\":\"bitmaps\"," B1 "}]}", "\"bitmaps\" must be an array"},
    {HEAD S1 "\"state\":\"bitmaps\"," B1 ",\"bitmaps\":[{\"type\":\"|u1\",\"mult\":1,\"div\":1,\"bias\":0,"
             "\"bits\":\"0\"}]}]}", "hex digits"},
    {HEAD S1 "\"state\":\"bitmaps\"," B1 ",\"bitmaps\":[{\"type\":\">u2\",\"mult\":1,\"div\":1,\"bias\":0,"
             "\"bits\":\"02\"}]}]}", "does not fit"},
    {HEAD S1 "\"state\":\"bitmaps\"," B1 ",\"bitmaps\":[{\"type\":\"|u1\",\"mult\":1,\"div\":7,\"bias\":0,"
             "\"bits\":\"01\"}]}]}", "not a known transform"},
    {HEAD S1 "\"state\":\"bitmaps\"," B1 ",\"bitmaps\":[{\"type\":\"|u1\",\"mult\":1,\"div\":1,\"bias\":0,"
             "\"bits\":\"01\"},{\"type\":\"|u1\",\"mult\":1,\"div\":1,\"bias\":0,\"bits\":\"01\"}]}]}",
     "a second bitmap"},
    {HEAD S1 "\"state\":\"all\"," B1 "}," S1 "\"state\":\"all\"," B1 "}]}", "a second search named"},
};

static void bad_saved_files(void **state)
{
    (void)state;
    rg_gamedata *gd = bind_mem(1);
    rg_searchset *set = typed_set("|u1");
    put(0, "05");
    assert_int_equal(rg_search_value(set, "keep", gd, 5), RG_OK);
    char *before = saved(set);
    for (size_t i = 0; i < sizeof bad_files / sizeof bad_files[0]; i++) {
        int rc = rg_searchset_load_string(set, bad_files[i].json, strlen(bad_files[i].json));
        if (rc != RG_ECORRUPT)
            fail_msg("bad file %zu: rc %d (%s)", i, rc, rg_error_last());
        if (!strstr(rg_error_last(), bad_files[i].error))
            fail_msg("bad file %zu: message \"%s\" lacks \"%s\"", i, rg_error_last(), bad_files[i].error);
        char *after = saved(set); /* nothing half-loaded: the set is as before */
        assert_string_equal(before, after);
        free(after);
    }
    /* a good file with the same pieces loads */
    const char *good = HEAD S1 "\"state\":\"list\"," B1 ",\"results\":[[256,\"|u1\",1,1,0],[256,\">u2\",1,1,0]]}]}";
    assert_int_equal(rg_searchset_load_string(set, good, strlen(good)), RG_OK);
    uint64_t n;
    assert_int_equal(rg_search_result_count(set, "s", &n), RG_OK);
    assert_int_equal(n, 2);
    assert_int_equal(rg_searchset_count(set), 1);
    assert_int_equal(rg_searchset_load_file(set, "/nonexistent/searches.json"), RG_ENOTFOUND);
    free(before);
    rg_searchset_free(set);
    rg_gamedata_free(gd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(value_table),      cmocka_unit_test(narrowing),
        cmocka_unit_test(delta_table),      cmocka_unit_test(chained),
        cmocka_unit_test(overlay),          cmocka_unit_test(against_enumeration),
        cmocka_unit_test(big_space),        cmocka_unit_test(names_and_errors),
        cmocka_unit_test(save_load),        cmocka_unit_test(bad_saved_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
