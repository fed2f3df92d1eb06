/* The 68000 against the SingleStepTests 68000 suite (../shared/cpu-tests/m68000/v1, generated with MAME's
 * microcoded 68000; 300 cases per instruction file): one instruction per case from the initial state, then D0-D7,
 * A0-A6, USP, SSP, SR, PC (the next prefetch address), the two-word prefetch queue, every RAM word the case lists and
 * the total clock count must match. A case fails or passes as a whole; each file may fail at most the number of
 * cases its xfail entry allows (m68k_xfail.h; empty now: every case passes). The order of the bus reads and writes
 * (idle cycles and the cycle of a faulting access left out) must match too, outside m68k_order_xfail.
 * Skipped without ../shared. The reader of the binary format checks every size and bound: broken files give an
 * error (tested on corrupted copies built in memory). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cpu/m68k/m68k.h"

/* ---- the test bus: 16 MiB of RAM, writes logged so that the next case starts from zeroes ---- */
#define TB_LOG 4096
typedef struct tbus {
    uint8_t *mem;            /* 16 MiB + 2 */
    uint32_t log[TB_LOG];
    int nlog;
    int overflow;
    long steps;
    uint32_t acc[256];       /* the bus accesses of the case: address | 1 << 31 for a write */
    int nacc;
    int order_ok;            /* the last case made the suite's reads and writes in its order */
    int ordered;             /* cases of the current file that did */
} tbus;

static inline uint16_t tb_read(tbus *b, uint32_t addr)
{
    if (b->nacc < 256) b->acc[b->nacc++] = addr;
    return (uint16_t)(b->mem[addr] << 8 | b->mem[addr + 1]);
}
static inline void tb_write(tbus *b, uint32_t addr, uint16_t v, int sel)
{
    if (sel & 2) b->mem[addr] = (uint8_t)(v >> 8);
    if (sel & 1) b->mem[addr + 1] = (uint8_t)v;
    if (b->nlog < TB_LOG) b->log[b->nlog++] = addr;
    if (b->nacc < 256) b->acc[b->nacc++] = addr | 0x80000000u;
    else b->overflow = 1;
}

#define M68K_FN tb_run
#define M68K_CTX tbus
#define M68K_READ(b, addr, sel) ((void)(sel), tb_read((b), (addr)))
#define M68K_WRITE(b, addr, v, sel) tb_write((b), (addr), (v), (sel))
#define M68K_STOP(b) ((b)->steps-- <= 0)
#include "cpu/m68k/m68k_exec.h"

/* ---- reader of the binary format ---- */
typedef struct rd {
    const uint8_t *p;
    size_t len, pos;
    const char *err;
} rd;

static uint32_t rd_u32(rd *r)
{
    if (r->err) return 0;
    if (r->len - r->pos < 4) { r->err = "truncated"; return 0; }
    const uint8_t *q = r->p + r->pos;
    r->pos += 4;
    return (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
}
static uint32_t rd_u16(rd *r)
{
    if (r->err) return 0;
    if (r->len - r->pos < 2) { r->err = "truncated"; return 0; }
    const uint8_t *q = r->p + r->pos;
    r->pos += 2;
    return (uint32_t)q[0] | (uint32_t)q[1] << 8;
}
static void rd_magic(rd *r, uint32_t want)
{
    rd_u32(r); /* byte count of the block (not relied on) */
    if (rd_u32(r) != want && !r->err) r->err = "bad block magic";
}

#define MAX_RAM 512
typedef struct tstate {
    uint32_t reg[19]; /* d0-d7 a0-a6 usp ssp sr pc */
    uint32_t pf[2];
    uint32_t nram;
    uint32_t ram_addr[MAX_RAM];
    uint16_t ram_val[MAX_RAM];
} tstate;

typedef struct tcase {
    char name[128];
    tstate in, out;
    uint32_t cycles;
    uint32_t acc[256]; /* the reads and writes the suite records (idle and faulting cycles left out), as tbus.acc */
    int nacc;          /* -1: more than fit, or a TAS cycle (not compared) */
    int faults;        /* an address error happens in the case */
} tcase;

static void rd_state(rd *r, tstate *s)
{
    rd_magic(r, 0x01234567u);
    for (int i = 0; i < 19; i++) s->reg[i] = rd_u32(r);
    s->pf[0] = rd_u32(r);
    s->pf[1] = rd_u32(r);
    s->nram = rd_u32(r);
    if (r->err) return;
    if (s->nram > MAX_RAM) { r->err = "too many RAM entries"; return; }
    for (uint32_t i = 0; i < s->nram; i++) {
        s->ram_addr[i] = rd_u32(r);
        s->ram_val[i] = (uint16_t)rd_u16(r);
        if (!r->err && (s->ram_addr[i] >= 0x1000000u || (s->ram_addr[i] & 1))) { r->err = "bad RAM address"; return; }
    }
    if (!r->err && (s->reg[17] & ~0xFFFFu)) r->err = "bad sr";
    if (!r->err && (s->pf[0] > 0xFFFFu || s->pf[1] > 0xFFFFu)) r->err = "bad prefetch word";
}

static void rd_case(rd *r, tcase *t)
{
    rd_magic(r, 0xABC12367u);
    rd_magic(r, 0x89ABCDEFu);
    uint32_t n = rd_u32(r);
    if (r->err) return;
    if (n > r->len - r->pos) { r->err = "name runs past the end"; return; }
    size_t k = n < sizeof t->name - 1 ? n : sizeof t->name - 1;
    memcpy(t->name, r->p + r->pos, k);
    t->name[k] = 0;
    r->pos += n;
    rd_state(r, &t->in);
    rd_state(r, &t->out);
    rd_magic(r, 0x456789ABu);
    t->cycles = rd_u32(r);
    uint32_t ntr = rd_u32(r);
    if (r->err) return;
    if (ntr > 100000u) { r->err = "too many transactions"; return; }
    t->nacc = 0;
    t->faults = 0;
    for (uint32_t i = 0; i < ntr && !r->err; i++) {
        if (r->pos >= r->len) { r->err = "truncated"; return; }
        uint8_t kind = r->p[r->pos++];
        rd_u32(r);
        if (kind > 5) { r->err = "bad transaction kind"; return; }
        if (!kind)
            continue;
        rd_u32(r); /* function code */
        uint32_t addr = rd_u32(r);
        for (int j = 0; j < 3; j++) rd_u32(r); /* data, UDS, LDS */
        if (kind == 4 || kind == 5) t->faults = 1;
        if (kind == 3 || t->nacc >= 256) t->nacc = -1;
        else if ((kind == 1 || kind == 2) && t->nacc >= 0)
            t->acc[t->nacc++] = (addr & 0xFFFFFEu) | (kind == 1 ? 0x80000000u : 0u);
    }
}

/* Runs a case; returns 1 when everything matches. `why` gets the first difference. */
static int run_case(tbus *b, const tcase *t, char *why, size_t cap)
{
    static const char *const names[19] = {"d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "a0", "a1",
                                          "a2", "a3", "a4", "a5", "a6", "usp", "ssp", "sr", "pc"};
    for (uint32_t i = 0; i < t->in.nram; i++) {
        b->mem[t->in.ram_addr[i]] = (uint8_t)(t->in.ram_val[i] >> 8);
        b->mem[t->in.ram_addr[i] + 1] = (uint8_t)t->in.ram_val[i];
    }
    rg_m68k c;
    rg__m68k_init(&c);
    for (int i = 0; i < 8; i++) c.d[i] = t->in.reg[i];
    for (int i = 0; i < 7; i++) c.a[i] = t->in.reg[8 + i];
    c.sr = (uint16_t)t->in.reg[17];
    int s = (c.sr & RG_M68K_S) != 0;
    c.a[7] = s ? t->in.reg[16] : t->in.reg[15];
    c.other_sp = s ? t->in.reg[15] : t->in.reg[16];
    c.pc = t->in.reg[18];
    c.ir = (uint16_t)t->in.pf[0];
    c.irc = (uint16_t)t->in.pf[1];
    b->steps = 1;
    b->nacc = 0;
    b->nlog = 0;
    b->overflow = 0;
    tb_run(&c, b);

    uint32_t got[19];
    for (int i = 0; i < 8; i++) got[i] = c.d[i];
    for (int i = 0; i < 7; i++) got[8 + i] = c.a[i];
    s = (c.sr & RG_M68K_S) != 0;
    got[15] = s ? c.other_sp : c.a[7];
    got[16] = s ? c.a[7] : c.other_sp;
    got[17] = c.sr;
    got[18] = c.pc;
    int ok = 1;
    why[0] = 0;
    for (int i = 0; i < 19 && ok; i++)
        if (got[i] != t->out.reg[i]) {
            snprintf(why, cap, "%s %08X want %08X", names[i], got[i], t->out.reg[i]);
            ok = 0;
        }
    if (ok && (c.ir != t->out.pf[0] || c.irc != t->out.pf[1])) {
        snprintf(why, cap, "prefetch %04X %04X want %04X %04X", c.ir, c.irc, t->out.pf[0], t->out.pf[1]);
        ok = 0;
    }
    for (uint32_t i = 0; i < t->out.nram && ok; i++) {
        uint32_t ad = t->out.ram_addr[i];
        uint16_t v = (uint16_t)(b->mem[ad] << 8 | b->mem[ad + 1]);
        if (v != t->out.ram_val[i]) {
            snprintf(why, cap, "ram %06X %04X want %04X", ad, v, t->out.ram_val[i]);
            ok = 0;
        }
    }
    if (ok && c.cycles != t->cycles) {
        snprintf(why, cap, "cycles %llu want %u", (unsigned long long)c.cycles, t->cycles);
        ok = 0;
    }
    b->order_ok = t->nacc >= 0 && b->nacc == t->nacc && !memcmp(b->acc, t->acc, (size_t)t->nacc * sizeof t->acc[0]);
    /* back to zeroes for the next case */
    for (uint32_t i = 0; i < t->in.nram; i++) b->mem[t->in.ram_addr[i]] = b->mem[t->in.ram_addr[i] + 1] = 0;
    for (int i = 0; i < b->nlog; i++) b->mem[b->log[i]] = b->mem[b->log[i] + 1] = 0;
    if (b->overflow) memset(b->mem, 0, 0x1000002u);
    return ok;
}

/* The disassembler's length against the case: an instruction that neither faults, nor pushes, nor changes the flow
 * leaves pc at its address + 2 * length + 4 (the queue holds the next two words). Counts checks and mismatches. */
static int dis_checked, dis_wrong;
static void check_length(const tcase *t, int flow)
{
    if (flow || t->faults || t->in.reg[15] != t->out.reg[15] || t->in.reg[16] != t->out.reg[16])
        return;
    uint16_t w[5] = {(uint16_t)t->in.pf[0], (uint16_t)t->in.pf[1], 0, 0, 0};
    uint32_t pc = t->in.reg[18]; /* the opcode is at pc - 4, its second word at pc - 2 */
    for (int k = 2; k < 5; k++) {
        uint32_t ad = (pc + 2u * (unsigned)(k - 2)) & 0xFFFFFEu;
        for (uint32_t i = 0; i < t->in.nram; i++)
            if (t->in.ram_addr[i] == ad) w[k] = t->in.ram_val[i];
    }
    char text[96];
    int len = rg__m68k_disasm(pc - 4, w, 5, text, sizeof text);
    dis_checked++;
    if (len < 1 || t->out.reg[18] != pc + 2u * (unsigned)len) {
        if (dis_wrong < 5)
            print_message("  disassembler length %d for %s (%s): pc %08X -> %08X\n", len, t->name, text, pc,
                          t->out.reg[18]);
        dis_wrong++;
    }
}

/* Parses a whole file image; runs the cases when b is given. Returns NULL or the first format error. */
static const char *run_image(const uint8_t *p, size_t len, tbus *b, int *total, int *passed, int verbose, int flow)
{
    rd r = {p, len, 0, NULL};
    if (rd_u32(&r) != 0x1A3F5D71u && !r.err) return "bad file magic";
    uint32_t n = rd_u32(&r);
    if (r.err) return r.err;
    if (n > 100000u) return "too many cases";
    static tcase t;
    *total = *passed = 0;
    for (uint32_t i = 0; i < n; i++) {
        rd_case(&r, &t);
        if (r.err) return r.err;
        (*total)++;
        if (!b) continue;
        char why[128];
        check_length(&t, flow);
        int ok = run_case(b, &t, why, sizeof why);
        b->ordered += b->order_ok;
        if (ok) (*passed)++;
        else if (verbose > 0) {
            print_message("  FAIL %s: %s\n", t.name, why);
            verbose--;
        }
    }
    if (r.pos != r.len) return "trailing bytes";
    return NULL;
}

static uint8_t *load_file(const char *path, size_t *len)
{
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = n > 0 ? malloc((size_t)n) : NULL;
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) { free(p); p = NULL; }
    fclose(f);
    *len = (size_t)n;
    return p;
}

static const char *suite_dir(char *buf, size_t cap)
{
    const char *env = getenv("RETROGYM_SHARED");
    snprintf(buf, cap, "%s/cpu-tests/m68000/v1", env && *env ? env : RG_SOURCE_DIR "/../shared");
    struct stat st;
    return stat(buf, &st) == 0 && S_ISDIR(st.st_mode) ? buf : NULL;
}

#include "m68k_xfail.h"

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int xfail_allowed(const char *file)
{
    for (size_t i = 0; m68k_xfail[i].file; i++)
        if (!strcmp(m68k_xfail[i].file, file)) return m68k_xfail[i].allowed;
    return 0;
}
static int order_allowed(const char *file)
{
    for (size_t i = 0; m68k_order_xfail[i].file; i++)
        if (!strcmp(m68k_order_xfail[i].file, file)) return m68k_order_xfail[i].allowed;
    return 0;
}

#include <dirent.h>
static void test_suite(void **state)
{
    (void)state;
    char dir[1024], path[1400];
    if (!suite_dir(dir, sizeof dir)) {
        print_message("no ../shared/cpu-tests/m68000/v1: skipped\n");
        skip();
    }
    DIR *d = opendir(dir);
    assert_non_null(d);
    char *names[512];
    int nn = 0;
    struct dirent *de;
    while ((de = readdir(d)) && nn < 512) {
        size_t l = strlen(de->d_name);
        if (l > 9 && !strcmp(de->d_name + l - 9, ".json.bin")) names[nn++] = strdup(de->d_name);
    }
    closedir(d);
    qsort(names, (size_t)nn, sizeof names[0], cmp_names);
    assert_true(nn >= (getenv("M68K_VERBOSE") ? 1 : 120));

    static tbus bus;
    bus.mem = calloc(1, 0x1000002u);
    assert_non_null(bus.mem);
    int files_ok = 0, all = 0, all_pass = 0, bad = 0, all_ordered = 0;
    const char *verbose_env = getenv("M68K_VERBOSE");
    for (int i = 0; i < nn; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        size_t len = 0;
        uint8_t *img = load_file(path, &len);
        assert_non_null(img);
        int total = 0, passed = 0;
        char file[256];
        snprintf(file, sizeof file, "%.*s", (int)(strlen(names[i]) - 9), names[i]);
        bus.ordered = 0;
        static const char *const flow_files[] = {"Bcc", "BSR", "DBcc", "JMP", "JSR", "RTE", "RTR", "RTS", "STOP"};
        int flow = 0;
        for (size_t k = 0; k < sizeof flow_files / sizeof flow_files[0]; k++)
            flow |= !strcmp(file, flow_files[k]);
        const char *err = run_image(img, len, &bus, &total, &passed, verbose_env ? atoi(verbose_env) : 0, flow);
        all_ordered += bus.ordered;
        if (getenv("M68K_ORDER") || total - bus.ordered > order_allowed(file))
            print_message("%-16s bus order %d/%d (allowed to differ: %d)\n", file, bus.ordered, total,
                          order_allowed(file));
        if (total - bus.ordered > order_allowed(file))
            bad++;
        free(img);
        if (err) {
            print_message("%s: format error: %s\n", file, err);
            bad++;
            continue;
        }
        int allowed = xfail_allowed(file);
        all += total;
        all_pass += passed;
        if (total - passed > allowed) {
            print_message("%-16s %3d/%d pass (xfail allows %d) FAILED\n", file, passed, total, allowed);
            bad++;
        } else {
            files_ok++;
            if (total - passed < allowed)
                print_message("%-16s %3d/%d pass (xfail allows %d: lower it)\n", file, passed, total, allowed);
            else if (passed < total)
                print_message("%-16s %3d/%d pass (xfail allows %d)\n", file, passed, total, allowed);
        }
    }
    print_message("disassembler: %d lengths checked against the cases, %d wrong\n", dis_checked, dis_wrong);
    assert_true(dis_checked > 20000);
    assert_int_equal(dis_wrong, 0);
    print_message("m68000 suite: %d/%d cases pass; %d/%d files within their xfail allowance; %d cases make their "
                  "reads and writes in the recorded order\n", all_pass, all, files_ok, nn, all_ordered);
    for (int i = 0; i < nn; i++) free(names[i]);
    free(bus.mem);
    assert_int_equal(bad, 0);
}

/* A one-case image built here: NOP at $1000 (pc $1004), then the same bytes with faults put in. */
static size_t put32(uint8_t *p, size_t o, uint32_t v)
{
    p[o] = (uint8_t)v; p[o + 1] = (uint8_t)(v >> 8); p[o + 2] = (uint8_t)(v >> 16); p[o + 3] = (uint8_t)(v >> 24);
    return o + 4;
}
static size_t put_state(uint8_t *p, size_t o, uint32_t pc, uint32_t pf0, uint32_t pf1)
{
    o = put32(p, o, 0);
    o = put32(p, o, 0x01234567u);
    for (int i = 0; i < 19; i++) o = put32(p, o, i == 17 ? 0x2700u : i == 18 ? pc : i == 16 ? 0x8000u : (uint32_t)i);
    o = put32(p, o, pf0);
    o = put32(p, o, pf1);
    o = put32(p, o, 2);
    o = put32(p, o, 0x1000); p[o++] = 0x71; p[o++] = 0x4E; /* the NOP */
    o = put32(p, o, 0x1002); p[o++] = 0x71; p[o++] = 0x4E; /* another NOP */
    return o;
}
static size_t build_image(uint8_t *p)
{
    size_t o = put32(p, 0, 0x1A3F5D71u);
    o = put32(p, o, 1);
    o = put32(p, o, 0);
    o = put32(p, o, 0xABC12367u);
    o = put32(p, o, 0);
    o = put32(p, o, 0x89ABCDEFu);
    o = put32(p, o, 3);
    memcpy(p + o, "NOP", 3);
    o += 3;
    /* the queue holds NOP, NOP; pc = $1004 where the next word (zero: ORI.b #0,D0) is */
    o = put_state(p, o, 0x1004, 0x4E71, 0x4E71);
    o = put_state(p, o, 0x1006, 0x4E71, 0x0000);
    o = put32(p, o, 0);
    o = put32(p, o, 0x456789ABu);
    o = put32(p, o, 4);
    o = put32(p, o, 1);
    p[o++] = 2;
    o = put32(p, o, 4);
    o = put32(p, o, 6); o = put32(p, o, 0x1004); o = put32(p, o, 0); o = put32(p, o, 1); o = put32(p, o, 1);
    return o;
}

static void test_format_errors(void **state)
{
    (void)state;
    static uint8_t img[2048], bad[2048];
    size_t len = build_image(img);
    static tbus bus;
    bus.mem = calloc(1, 0x1000002u);
    assert_non_null(bus.mem);
    int total, passed;
    assert_null(run_image(img, len, &bus, &total, &passed, 1, 0));
    assert_int_equal(total, 1);
    assert_int_equal(passed, 1); /* the NOP case built here passes */

    /* the same case with a wrong expected cycle count fails */
    memcpy(bad, img, len);
    size_t cyc = len - 1 - 4 - 20 - 4 - 4; /* the num_cycles field */
    put32(bad, cyc, 8);
    assert_null(run_image(bad, len, &bus, &total, &passed, 0, 0));
    assert_int_equal(passed, 0);

    /* every truncation is an error, never a crash */
    for (size_t cut = 0; cut < len; cut++)
        assert_non_null(run_image(img, cut, NULL, &total, &passed, 0, 0));
    /* trailing garbage */
    memcpy(bad, img, len);
    bad[len] = 0;
    assert_string_equal(run_image(bad, len + 1, NULL, &total, &passed, 0, 0), "trailing bytes");
    /* each magic number damaged */
    static const size_t magics[] = {0, 12, 20, 35};
    for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++) {
        memcpy(bad, img, len);
        bad[magics[i]] ^= 0x55;
        assert_non_null(run_image(bad, len, NULL, &total, &passed, 0, 0));
    }
    /* a name longer than the file, a huge RAM list, an odd RAM address, an address past 24 bits */
    memcpy(bad, img, len);
    put32(bad, 24, 0x7FFFFFFFu);
    assert_string_equal(run_image(bad, len, NULL, &total, &passed, 0, 0), "name runs past the end");
    size_t nram = 31 + 8 + 19 * 4 + 8;
    memcpy(bad, img, len);
    put32(bad, nram, 100000);
    assert_string_equal(run_image(bad, len, NULL, &total, &passed, 0, 0), "too many RAM entries");
    memcpy(bad, img, len);
    put32(bad, nram + 4, 0x1001);
    assert_string_equal(run_image(bad, len, NULL, &total, &passed, 0, 0), "bad RAM address");
    memcpy(bad, img, len);
    put32(bad, nram + 4, 0x1000000);
    assert_string_equal(run_image(bad, len, NULL, &total, &passed, 0, 0), "bad RAM address");
    /* a huge case count */
    memcpy(bad, img, len);
    put32(bad, 4, 0xFFFFFFFFu);
    assert_string_equal(run_image(bad, len, NULL, &total, &passed, 0, 0), "too many cases");
    free(bus.mem);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_errors),
        cmocka_unit_test(test_suite),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
