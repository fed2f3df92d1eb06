/* Our 6502 against Stella 3.9.3 (the libretro core in stable-retro's wheel), the emulator the Atari 2600 core must
 * match RAM for RAM: a 4K cartridge assembled here runs ADC/SBC (decimal and binary), the undocumented immediate
 * opcodes (ANC, ALR, ARR, SBX, ANE, LXA, SBC #$EB) and the undocumented read-modify-write, load and store opcodes
 * on every accumulator value and operand with the carry (and, where it matters, D) both ways, and folds every
 * result (A, X, P, memory) into checksums in RAM. The same cartridge runs on our CPU over a minimal 2600 bus (RAM,
 * ROM, nothing else is touched); the RAM must be identical. Skipped when the Stella core is not installed. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "cpu/m6502/m6502.h"

/* ---- the cartridge ---- */

#define ORG 0xF000u
enum {
    RES = 0x80,      /* two checksum bytes per tested opcode */
    DONE = 0xDF,     /* $A5 when finished */
    RA = 0xE0, RX = 0xE1, RP = 0xE2, /* results stored by the RAM routine */
    OPIDX = 0xE3, S1 = 0xE4, S2 = 0xE5, FLAGSEL = 0xE6, VA = 0xE7,
    TM = 0xE8,       /* zero-page operand of the tested opcode */
    VM = 0xE9, MODE = 0xEA, NFLAGS = 0xEB,
    ROUTINE = 0xF0   /* op, operand, PHP, STA RA, STX RX, PLA, STA RP, RTS; the stack stays above it */
};

/* Tested opcodes: operand mode (1 immediate, 0 zero page $E8) and how many of the P values below to try
 * (2: carry clear/set; 4: also with D). */
static const struct {
    uint8_t op, immediate, nflags;
} tested[] = {
    {0x69, 1, 4}, {0xE9, 1, 4}, {0xEB, 1, 4}, {0x6B, 1, 4}, /* ADC, SBC, SBC, ARR */
    {0x67, 0, 4}, {0xE7, 0, 4},                             /* RRA, ISB */
    {0x0B, 1, 2}, {0x2B, 1, 2}, {0x4B, 1, 2}, {0xCB, 1, 4}, /* ANC, ANC, ALR, SBX */
    {0x8B, 1, 2}, {0xAB, 1, 2},                             /* ANE, LXA */
    {0x07, 0, 2}, {0x27, 0, 2}, {0x47, 0, 2}, {0xC7, 0, 2}, /* SLO, RLA, SRE, DCP */
    {0xA7, 0, 2}, {0x87, 0, 2}, {0xC9, 1, 2}, {0x24, 0, 2}, /* LAX, SAX, CMP, BIT */
};
#define NTESTED (sizeof tested / sizeof tested[0])

typedef struct cart {
    uint8_t rom[4096];
    unsigned at;     /* next offset */
} cart;

static unsigned here(const cart *c)
{
    return ORG + c->at;
}
static void emit(cart *c, int n, ...)
{
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        c->rom[c->at++] = (uint8_t)va_arg(ap, int);
    va_end(ap);
}
static void emit_abs(cart *c, uint8_t op, unsigned addr)
{
    emit(c, 3, op, addr & 0xFF, addr >> 8);
}
static void branch_back(cart *c, uint8_t op, unsigned target)
{
    int off = (int)target - (int)(here(c) + 2);
    assert_true(off >= -128 && off < 0);
    emit(c, 2, op, off & 0xFF);
}

static void build_cart(cart *c)
{
    memset(c, 0, sizeof *c);
    unsigned start = here(c);
    emit(c, 5, 0x78, 0xD8, 0xA2, 0xFF, 0x9A);          /* SEI CLD LDX #$FF TXS */
    unsigned copy_at = here(c) + 2, tmpl_fix = c->at + 3;
    emit(c, 2, 0xA2, 10);                              /* LDX #10 */
    emit_abs(c, 0xBD, 0);                              /* LDA tmpl,X (patched) */
    emit(c, 3, 0x95, ROUTINE, 0xCA);                   /* STA ROUTINE,X  DEX */
    branch_back(c, 0x10, copy_at);                     /* BPL copy */
    emit(c, 4, 0xA9, 0, 0x85, OPIDX);
    unsigned oploop = here(c);
    emit(c, 2, 0xA6, OPIDX);                           /* LDX OPIDX */
    unsigned optab_fix = c->at + 1;
    emit_abs(c, 0xBD, 0);                              /* LDA optab,X */
    emit(c, 2, 0x85, ROUTINE);
    unsigned modetab_fix = c->at + 1;
    emit_abs(c, 0xBD, 0);                              /* LDA modetab,X */
    emit(c, 2, 0x85, MODE);
    unsigned nftab_fix = c->at + 1;
    emit_abs(c, 0xBD, 0);                              /* LDA nftab,X */
    emit(c, 2, 0x85, NFLAGS);
    emit(c, 4, 0xA9, TM, 0x85, ROUTINE + 1);           /* operand $E8 (immediate tests overwrite it) */
    emit(c, 8, 0xA9, 0, 0x85, S1, 0x85, S2, 0x85, FLAGSEL);
    unsigned flagloop = here(c);
    emit(c, 4, 0xA9, 0, 0x85, VA);
    unsigned aloop = here(c);
    emit(c, 4, 0xA9, 0, 0x85, VM);
    unsigned mloop = here(c);
    emit(c, 4, 0xA5, VM, 0x85, TM);
    emit(c, 6, 0xA4, MODE, 0xF0, 0x02, 0x85, ROUTINE + 1); /* immediate: the value is the operand */
    emit(c, 2, 0xA6, FLAGSEL);
    unsigned ptab_fix = c->at + 1;
    emit_abs(c, 0xBD, 0);                              /* LDA ptab,X */
    emit(c, 1, 0x48);                                  /* PHA */
    emit(c, 5, 0xA5, VA, 0x49, 0x5A, 0xAA);            /* X = A ^ $5A */
    emit(c, 3, 0xA5, VA, 0x28);                        /* LDA VA  PLP */
    emit_abs(c, 0x20, ROUTINE);                        /* JSR $00F0 */
    emit(c, 1, 0xD8);                                  /* CLD */
    unsigned fold_fix = c->at + 1;
    emit_abs(c, 0x20, 0);                              /* JSR fold */
    emit(c, 2, 0xE6, VM);
    branch_back(c, 0xD0, mloop);
    emit(c, 2, 0xE6, VA);
    branch_back(c, 0xD0, aloop);
    emit(c, 6, 0xE6, FLAGSEL, 0xA5, FLAGSEL, 0xC5, NFLAGS);
    branch_back(c, 0xD0, flagloop);
    emit(c, 4, 0xA5, OPIDX, 0x0A, 0xAA);               /* X = 2 * OPIDX */
    emit(c, 8, 0xA5, S1, 0x95, RES, 0xA5, S2, 0x95, RES + 1);
    emit(c, 6, 0xE6, OPIDX, 0xA5, OPIDX, 0xC9, (int)NTESTED);
    emit(c, 2, 0xF0, 0x03);                            /* BEQ done */
    emit_abs(c, 0x4C, oploop);
    emit(c, 4, 0xA9, 0xA5, 0x85, DONE);
    unsigned hang = here(c);
    emit_abs(c, 0x4C, hang);

    /* fold: for b in A, X, P, memory: h = rotate_left_16(h); h.lo = (h.lo ^ b) + h.hi (h = S2:S1). A plain sum
     * would not do: over all inputs most results cancel out modulo 256. */
    unsigned fold = here(c);
    static const uint8_t folded[] = {RA, RX, RP, TM};
    for (size_t i = 0; i < sizeof folded; i++) /* LDA S1 ASL ROL S2 ADC #0 EOR b CLC ADC S2 STA S1 */
        emit(c, 14, 0xA5, S1, 0x0A, 0x26, S2, 0x69, 0x00, 0x45, folded[i], 0x18, 0x65, S2, 0x85, S1);
    emit(c, 1, 0x60);

    unsigned tmpl = here(c);
    emit(c, 11, 0x00, 0x00, 0x08, 0x85, RA, 0x86, RX, 0x68, 0x85, RP, 0x60);
    unsigned optab = here(c);
    for (size_t i = 0; i < NTESTED; i++)
        emit(c, 1, tested[i].op);
    unsigned modetab = here(c);
    for (size_t i = 0; i < NTESTED; i++)
        emit(c, 1, tested[i].immediate);
    unsigned nftab = here(c);
    for (size_t i = 0; i < NTESTED; i++)
        emit(c, 1, tested[i].nflags);
    unsigned ptab = here(c);
    emit(c, 4, 0x00, 0x01, 0x08, 0x09);                /* -, C, D, D|C */

    struct { unsigned at, addr; } fix[] = {{tmpl_fix, tmpl}, {optab_fix, optab}, {modetab_fix, modetab},
                                           {nftab_fix, nftab}, {ptab_fix, ptab}, {fold_fix, fold}};
    for (size_t i = 0; i < sizeof fix / sizeof fix[0]; i++) {
        c->rom[fix[i].at] = (uint8_t)fix[i].addr;
        c->rom[fix[i].at + 1] = (uint8_t)(fix[i].addr >> 8);
    }
    c->rom[0xFFC] = (uint8_t)start;
    c->rom[0xFFD] = (uint8_t)(start >> 8);
    c->rom[0xFFE] = (uint8_t)start;
    c->rom[0xFFF] = (uint8_t)(start >> 8);
}

/* ---- our CPU on a minimal 2600 bus: 13 address lines, RAM at $80 (A12 = A9 = 0, A7 = 1), ROM at A12 ---- */

typedef struct vcs {
    const uint8_t *rom;
    uint8_t ram[128];
    long steps;
} vcs;

static inline uint8_t vcs_read(vcs *m, uint16_t addr)
{
    addr &= 0x1FFF;
    if (addr & 0x1000)
        return m->rom[addr & 0xFFF];
    return (addr & 0x280) == 0x80 ? m->ram[addr & 0x7F] : 0;
}

static inline void vcs_write(vcs *m, uint16_t addr, uint8_t v)
{
    if ((addr & 0x1280) == 0x80)
        m->ram[addr & 0x7F] = v;
}

#define M6502_FN vcs_run
#define M6502_CTX vcs
#define M6502_READ(m, ad) vcs_read((m), (ad))
#define M6502_WRITE(m, ad, v) vcs_write((m), (ad), (v))
#define M6502_STOP(m) ((m)->steps-- <= 0)
#define M6502_INTERRUPTS 0
#include "cpu/m6502/m6502_exec.h"

/* ---- Stella ---- */

/* Points RETROGYM_CORE_PATH at stable-retro's cores in the project's .venv unless it is set. */
static int find_stella(void)
{
    const char *env = getenv("RETROGYM_CORE_PATH");
    if (!env || !*env) {
        glob_t g;
        if (glob(RG_SOURCE_DIR "/.venv/lib/python3*/site-packages/stable_retro/cores/stella_libretro.so", 0, NULL,
                 &g) == 0 && g.gl_pathc > 0) {
            char dir[1024];
            snprintf(dir, sizeof dir, "%s", g.gl_pathv[0]);
            *strrchr(dir, '/') = '\0';
            setenv("RETROGYM_CORE_PATH", dir, 1);
        }
        globfree(&g);
    }
    return test_core_installed("stella");
}

static void test_against_stella(void **state)
{
    (void)state;
    if (!find_stella()) {
        print_message("no stella libretro core: skipped\n");
        skip();
    }
    static cart c;
    build_cart(&c);

    /* Ours first: it also tells that the program ends. */
    static vcs m;
    memset(&m, 0, sizeof m);
    m.rom = c.rom;
    rg_m6502 cpu;
    rg__m6502_init(&cpu);
    cpu.pc = (uint16_t)(c.rom[0xFFC] | c.rom[0xFFD] << 8);
    cpu.s = (uint8_t)(cpu.s - 3);
    for (int chunk = 0; chunk < 1000 && m.ram[DONE - 0x80] != 0xA5; chunk++) {
        m.steps = 1000000;
        assert_int_equal(vcs_run(&cpu, &m), 0);
    }
    assert_int_equal(m.ram[DONE - 0x80], 0xA5);

    char path[1024];
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/m6502_vs_stella.a26", tmp && *tmp ? tmp : "/tmp");
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(c.rom, 1, sizeof c.rom, f), sizeof c.rom);
    fclose(f);
    rg_emu *emu = test_open(path, "stella");
    uint8_t ram[128] = {0};
    for (int frames = 0; frames < 40000; frames++) {
        assert_int_equal(rg_emu_run(emu), RG_OK);
        if (frames % 64 == 0) {
            assert_int_equal(rg_emu_mem_read(emu, 0x80, ram, sizeof ram), RG_OK);
            if (ram[DONE - 0x80] == 0xA5)
                break;
        }
    }
    rg_emu_free(emu);
    remove(path);
    assert_int_equal(ram[DONE - 0x80], 0xA5);

    int differ = 0;
    for (size_t i = 0; i < NTESTED; i++) {
        const uint8_t *s = &ram[RES - 0x80 + 2 * i], *o = &m.ram[RES - 0x80 + 2 * i];
        if (s[0] != o[0] || s[1] != o[1]) {
            print_error("opcode $%02X: checksum %02X%02X, Stella %02X%02X\n", tested[i].op, o[0], o[1], s[0], s[1]);
            differ++;
        }
    }
    assert_int_equal(differ, 0);
    /* The program's variables too (the rest of RAM is never written: Stella fills it with random bytes). */
    assert_memory_equal(&ram[RA - 0x80], &m.ram[RA - 0x80], NFLAGS - RA + 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_stella),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
