/* The SingleStepTests Z80 suite (../shared/cpu-tests/z80/v1: 1,604 files, one per opcode, 50 cases each): every case
 * runs one instruction from its initial state on a flat 64 KiB RAM bus that records each T-state (address, data,
 * RD/WR/MREQ/IORQ) the way the suite samples them; registers (wz, q, p, ei included), RAM, the I/O transactions and
 * the per-T-state bus activity must all match. Skipped when ../shared is absent.
 *
 * Arguments (for splitting the suite over several CTest entries): SHARD COUNT runs the files whose index modulo
 * COUNT is SHARD. RG_Z80_VERBOSE=1 prints the counts of every file, not only of failing ones. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "cpu/z80/z80.h"

#define PIN_R 1u
#define PIN_W 2u
#define PIN_M 4u
#define PIN_I 8u
#define MAX_CYCLES 64
#define MAX_PORTS 8

typedef struct tcycle {
    uint16_t addr;
    int16_t data; /* -1: null */
    uint8_t pins;
} tcycle;

typedef struct tport {
    uint16_t addr;
    uint8_t val;
    char dir;
} tport;

typedef struct tbus {
    uint8_t mem[65536];
    tcycle cyc[MAX_CYCLES];
    int ncyc;
    uint16_t last;
    long steps;
    tport in[MAX_PORTS]; /* the suite's port reads, in order */
    int nin, in_pos;
    tport done[MAX_PORTS]; /* what the CPU did on I/O */
    int ndone;
} tbus;

static inline void rec(tbus *b, unsigned addr, int data, unsigned pins)
{
    if (b->ncyc < MAX_CYCLES) {
        b->cyc[b->ncyc].addr = (uint16_t)addr;
        b->cyc[b->ncyc].data = (int16_t)data;
        b->cyc[b->ncyc].pins = (uint8_t)pins;
    }
    b->ncyc++;
    b->last = (uint16_t)addr;
}

static inline uint8_t t_fetch(tbus *b, uint16_t addr, uint16_t ir)
{
    uint8_t v = b->mem[addr];
    rec(b, addr, -1, 0);
    rec(b, addr, -1, PIN_R | PIN_M);
    rec(b, ir, v, 0);
    rec(b, ir, -1, 0);
    return v;
}

static inline uint8_t t_read(tbus *b, uint16_t addr)
{
    uint8_t v = b->mem[addr];
    rec(b, addr, -1, 0);
    rec(b, addr, -1, PIN_R | PIN_M);
    rec(b, addr, v, 0);
    return v;
}

static inline void t_write(tbus *b, uint16_t addr, uint8_t v)
{
    b->mem[addr] = v;
    rec(b, addr, -1, 0);
    rec(b, addr, v, PIN_W | PIN_M);
    rec(b, addr, -1, 0);
}

static inline uint8_t t_in(tbus *b, uint16_t port)
{
    uint8_t v = 0xFF;
    if (b->in_pos < b->nin)
        v = b->in[b->in_pos++].val;
    if (b->ndone < MAX_PORTS)
        b->done[b->ndone++] = (tport){port, v, 'r'};
    rec(b, port, -1, 0);
    rec(b, port, -1, 0);
    rec(b, port, -1, PIN_R | PIN_I);
    rec(b, port, v, 0);
    return v;
}

static inline void t_out(tbus *b, uint16_t port, uint8_t v)
{
    if (b->ndone < MAX_PORTS)
        b->done[b->ndone++] = (tport){port, v, 'w'};
    rec(b, port, -1, 0);
    rec(b, port, -1, 0);
    rec(b, port, v, PIN_W | PIN_I);
    rec(b, port, -1, 0);
}

static inline void t_idle(tbus *b, int n)
{
    while (n-- > 0)
        rec(b, b->last, -1, 0);
}

#define Z80_FN tbus_run
#define Z80_CTX tbus
#define Z80_FETCH(b, ad, ir) t_fetch((b), (ad), (ir))
#define Z80_READ(b, ad) t_read((b), (ad))
#define Z80_WRITE(b, ad, v) t_write((b), (ad), (v))
#define Z80_IN(b, port) t_in((b), (port))
#define Z80_OUT(b, port, v) t_out((b), (port), (v))
#define Z80_INTERNAL(b, n) t_idle((b), (n))
#define Z80_STOP(b) ((b)->steps-- <= 0)
#include "cpu/z80/z80_exec.h"

/* Opcode files not exact yet, with how many of their 50 cases fail (the test fails if the count differs). */
typedef struct xfail {
    const char *file;
    int failing;
} xfail;
static const xfail XFAIL[] = {
    {NULL, 0},
};

static const char *test_dir(char *buf, size_t cap)
{
    const char *env = getenv("RETROGYM_SHARED");
    snprintf(buf, cap, "%s/cpu-tests/z80/v1", env && *env ? env : RG_SOURCE_DIR "/../shared");
    struct stat st;
    return stat(buf, &st) == 0 && S_ISDIR(st.st_mode) ? buf : NULL;
}

static char *read_gz(const char *path, size_t *len)
{
    gzFile g = gzopen(path, "rb");
    if (!g)
        return NULL;
    size_t cap = 1u << 20, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
        int got = gzread(g, buf + n, (unsigned)(cap - n));
        if (got <= 0)
            break;
        n += (size_t)got;
    }
    gzclose(g);
    *len = n;
    return buf;
}

static unsigned num(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    assert_true(json_is_integer(v));
    return (unsigned)json_integer_value(v);
}

static void load_state(rg_z80 *c, json_t *s)
{
    memset(c, 0, sizeof *c);
    c->a = (uint8_t)num(s, "a");
    c->f = (uint8_t)num(s, "f");
    c->b = (uint8_t)num(s, "b");
    c->c = (uint8_t)num(s, "c");
    c->d = (uint8_t)num(s, "d");
    c->e = (uint8_t)num(s, "e");
    c->h = (uint8_t)num(s, "h");
    c->l = (uint8_t)num(s, "l");
    c->i = (uint8_t)num(s, "i");
    c->r = (uint8_t)num(s, "r");
    c->pc = (uint16_t)num(s, "pc");
    c->sp = (uint16_t)num(s, "sp");
    c->ix = (uint16_t)num(s, "ix");
    c->iy = (uint16_t)num(s, "iy");
    c->wz = (uint16_t)num(s, "wz");
    c->af_ = (uint16_t)num(s, "af_");
    c->bc_ = (uint16_t)num(s, "bc_");
    c->de_ = (uint16_t)num(s, "de_");
    c->hl_ = (uint16_t)num(s, "hl_");
    c->im = (uint8_t)num(s, "im");
    c->iff1 = (uint8_t)num(s, "iff1");
    c->iff2 = (uint8_t)num(s, "iff2");
    c->ei = (uint8_t)num(s, "ei");
    c->p = (uint8_t)num(s, "p");
    c->q = (uint8_t)num(s, "q");
}

/* Runs one case; returns NULL when it passes, else what differed first (in msg). */
static const char *run_case(tbus *b, json_t *tc, char *msg, size_t cap)
{
    json_t *init = json_object_get(tc, "initial"), *fin = json_object_get(tc, "final");
    json_t *ram = json_object_get(init, "ram"), *cycles = json_object_get(tc, "cycles");
    json_t *ports = json_object_get(tc, "ports");
    size_t i;
    json_t *e;
    rg_z80 cpu, want;

    load_state(&cpu, init);
    json_array_foreach(ram, i, e) b->mem[json_integer_value(json_array_get(e, 0)) & 0xFFFF] =
        (uint8_t)json_integer_value(json_array_get(e, 1));
    b->ncyc = 0;
    b->nin = b->in_pos = b->ndone = 0;
    b->last = cpu.pc;
    json_array_foreach(ports, i, e) {
        if (i >= MAX_PORTS)
            break;
        const char *dir = json_string_value(json_array_get(e, 2));
        if (dir && dir[0] == 'r')
            b->in[b->nin++] = (tport){(uint16_t)json_integer_value(json_array_get(e, 0)),
                                      (uint8_t)json_integer_value(json_array_get(e, 1)), 'r'};
    }
    b->steps = 1;
    tbus_run(&cpu, b);

    const char *bad = NULL;
    load_state(&want, fin);
#define CMP(field)                                                                                 \
    if (!bad && cpu.field != want.field) {                                                         \
        snprintf(msg, cap, #field " is %04x, want %04x", (unsigned)cpu.field, (unsigned)want.field); \
        bad = msg;                                                                                 \
    }
    CMP(a) CMP(f) CMP(b) CMP(c) CMP(d) CMP(e) CMP(h) CMP(l) CMP(i) CMP(r) CMP(pc) CMP(sp) CMP(ix) CMP(iy)
    CMP(wz) CMP(af_) CMP(bc_) CMP(de_) CMP(hl_) CMP(im) CMP(iff1) CMP(iff2) CMP(ei) CMP(p) CMP(q)
#undef CMP
    json_array_foreach(json_object_get(fin, "ram"), i, e) {
        unsigned ad = (unsigned)json_integer_value(json_array_get(e, 0)) & 0xFFFFu;
        unsigned v = (unsigned)json_integer_value(json_array_get(e, 1));
        if (!bad && b->mem[ad] != v) {
            snprintf(msg, cap, "ram[%04x] is %02x, want %02x", ad, b->mem[ad], v);
            bad = msg;
        }
    }
    if (!bad && (size_t)b->ncyc != json_array_size(cycles)) {
        snprintf(msg, cap, "%d T-states, want %zu", b->ncyc, json_array_size(cycles));
        bad = msg;
    }
    if (!bad) {
        json_array_foreach(cycles, i, e) {
            const tcycle *c = &b->cyc[i];
            json_t *d = json_array_get(e, 1);
            const char *pins = json_string_value(json_array_get(e, 2));
            unsigned want_pins = (pins[0] == 'r' ? PIN_R : 0u) | (pins[1] == 'w' ? PIN_W : 0u) |
                                 (pins[2] == 'm' ? PIN_M : 0u) | (pins[3] == 'i' ? PIN_I : 0u);
            int want_data = json_is_null(d) ? -1 : (int)json_integer_value(d);
            if (c->addr != (json_integer_value(json_array_get(e, 0)) & 0xFFFF) || c->data != want_data ||
                c->pins != want_pins) {
                snprintf(msg, cap, "T-state %zu: %04x %d pins %x, want %04x %d %s", i, c->addr, c->data, c->pins,
                         (unsigned)json_integer_value(json_array_get(e, 0)), want_data, pins);
                bad = msg;
                break;
            }
        }
    }
    if (!bad && (size_t)b->ndone != json_array_size(ports)) {
        snprintf(msg, cap, "%d I/O transactions, want %zu", b->ndone, json_array_size(ports));
        bad = msg;
    }
    json_array_foreach(ports, i, e) {
        if (bad || (int)i >= b->ndone)
            break;
        const char *dir = json_string_value(json_array_get(e, 2));
        if (b->done[i].addr != (json_integer_value(json_array_get(e, 0)) & 0xFFFF) ||
            b->done[i].val != json_integer_value(json_array_get(e, 1)) || !dir || b->done[i].dir != dir[0]) {
            snprintf(msg, cap, "I/O %zu: %c %04x %02x differs", i, b->done[i].dir, b->done[i].addr, b->done[i].val);
            bad = msg;
        }
    }
    /* Leave RAM as zeros for the next case (final RAM covers every address the case touched). */
    json_array_foreach(ram, i, e) b->mem[json_integer_value(json_array_get(e, 0)) & 0xFFFF] = 0;
    json_array_foreach(json_object_get(fin, "ram"), i, e) b->mem[json_integer_value(json_array_get(e, 0)) & 0xFFFF] = 0;
    for (int k = 0; k < b->ncyc && k < MAX_CYCLES; k++)
        if (b->cyc[k].pins == (PIN_W | PIN_M))
            b->mem[b->cyc[k].addr] = 0;
    return bad;
}

static int cmp_names(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

static int shard_index, shard_count = 1;

static void test_suite(void **state)
{
    (void)state;
    char dir[4096];
    if (!test_dir(dir, sizeof dir))
        skip();
    DIR *d = opendir(dir);
    assert_non_null(d);
    char **names = NULL;
    size_t nnames = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t n = strlen(de->d_name);
        if (n > 8 && strcmp(de->d_name + n - 8, ".json.gz") == 0) {
            names = realloc(names, (nnames + 1) * sizeof *names);
            names[nnames++] = strndup(de->d_name, n - 8);
        }
    }
    closedir(d);
    qsort(names, nnames, sizeof *names, cmp_names);
    if (shard_count == 1)
        assert_int_equal(nnames, 1604);

    tbus *b = calloc(1, sizeof *b);
    const int verbose = getenv("RG_Z80_VERBOSE") != NULL;
    long cases = 0, passed = 0, files = 0, files_passed = 0, unexpected = 0;
    for (size_t fi = 0; fi < nnames; fi++) {
        if ((int)(fi % (size_t)shard_count) != shard_index)
            continue;
        char path[4200];
        snprintf(path, sizeof path, "%s/%s.json.gz", dir, names[fi]);
        size_t len = 0;
        char *text = read_gz(path, &len);
        assert_non_null(text);
        json_error_t err;
        json_t *all = json_loadb(text, len, 0, &err);
        free(text);
        if (!all)
            fail_msg("%s: %s", path, err.text);
        size_t i;
        json_t *tc;
        int ok = 0, total = 0;
        char msg[256], first[320] = "";
        json_array_foreach(all, i, tc) {
            const char *bad = run_case(b, tc, msg, sizeof msg);
            total++;
            if (!bad)
                ok++;
            else if (!first[0])
                snprintf(first, sizeof first, "case %zu: %s", i, bad);
        }
        json_decref(all);
        files++;
        cases += total;
        passed += ok;
        files_passed += ok == total;
        int expected_fail = 0;
        for (const xfail *x = XFAIL; x->file; x++)
            if (strcmp(x->file, names[fi]) == 0)
                expected_fail = x->failing;
        if (total - ok != expected_fail) {
            unexpected++;
            printf("FAIL %-12s %d/%d pass (expected %d failing); first: %s\n", names[fi], ok, total, expected_fail,
                   first);
        } else if (verbose || ok != total) {
            printf("%s %-12s %d/%d pass%s\n", ok == total ? "ok  " : "xfail", names[fi], ok, total,
                   ok == total ? "" : first);
        }
    }
    printf("z80 SingleStepTests (shard %d/%d): %ld/%ld files and %ld/%ld cases pass exactly; %ld files not as "
           "expected\n",
           shard_index, shard_count, files_passed, files, passed, cases, unexpected);
    fflush(stdout);
    for (size_t i = 0; i < nnames; i++)
        free(names[i]);
    free(names);
    free(b);
    assert_int_equal(unexpected, 0);
}

int main(int argc, char **argv)
{
    if (argc == 3) {
        shard_index = atoi(argv[1]);
        shard_count = atoi(argv[2]);
        if (shard_count < 1 || shard_index < 0 || shard_index >= shard_count) {
            fprintf(stderr, "usage: %s [SHARD COUNT]\n", argv[0]);
            return 2;
        }
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_suite),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
