/* The Genesis core (src/cores/genesis): the VDP's register, data-port and DMA semantics on synthetic data (through
 * its internal API), a tiny 68000 program of our own that counts V interrupts and reads the pad through the TH
 * protocol, bad ROMs and hostile states refused with the machine unchanged, and stable-retro's Airstriker-Genesis
 * ROM (skipped when .venv has no stable-retro): it boots and runs its intro, title and menus with START pressed,
 * its pictures are drawn and change, a snapshot replays the same frames and RAM, and (when the wheel's
 * genesis_plus_gx is there) how close RAM and pictures are to Genesis Plus GX is printed (docs/genesis.md; not
 * asserted yet). */
#include "test_emu_state.h"
#include "test_support.h"

#include "base/base.h"
#include "cores/genesis/genesis.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER_SIZE 24u /* our state header: magic[8], version, size, rom hash */

/* --- the VDP on synthetic data */

static uint8_t g_rom[512 * 1024];

static rg__gen_machine *vdp_machine(void)
{
    rg__gen_machine *m = calloc(1, sizeof *m);
    assert_non_null(m);
    static uint32_t fb[RG__GEN_WIDTH * RG__GEN_MAX_HEIGHT];
    memset(g_rom, 0, sizeof g_rom);
    g_rom[2] = 0xFF, g_rom[3] = 0xFE; /* ssp $00FFFE... only the vectors matter here */
    g_rom[6] = 0x02;                  /* pc $200 */
    m->rom = g_rom;
    m->rom_mask = sizeof g_rom - 1u;
    m->fb = fb;
    rg__gen_power_on(m);
    return m;
}

static void reg(rg__gen_machine *m, unsigned r, unsigned v)
{
    rg__gen_vdp_ctrl_write(m, (uint16_t)(0x8000u | r << 8 | v));
}

/* the two command words for code cd (0 VRAM read, 1 VRAM write, 3 CRAM write, 4 VSRAM read, 5 VSRAM write,
 * 8 CRAM read; | 0x20 for DMA) at addr */
static void cmd(rg__gen_machine *m, unsigned cd, unsigned addr)
{
    rg__gen_vdp_ctrl_write(m, (uint16_t)((cd & 3u) << 14 | (addr & 0x3FFFu)));
    rg__gen_vdp_ctrl_write(m, (uint16_t)((cd & 0x3Cu) << 2 | addr >> 14));
}

static void test_vdp_registers_and_ports(void **s)
{
    (void)s;
    rg__gen_machine *m = vdp_machine();
    rg__gen_vdp *v = &m->st.vdp;
    reg(m, 15, 2);
    reg(m, 1, 0x44);
    assert_int_equal(v->reg[15], 2);
    assert_int_equal(v->reg[1], 0x44);
    reg(m, 30, 0x55); /* registers past 23 do not exist */
    assert_int_equal(v->pending, 0);

    /* VRAM: words big-endian, auto-increment by register 15 */
    cmd(m, 1, 0xC000);
    assert_int_equal(v->addr, 0xC000);
    assert_int_equal(v->code, 1);
    rg__gen_vdp_data_write(m, 0x1234);
    rg__gen_vdp_data_write(m, 0xABCD);
    assert_int_equal(v->vram[0xC000], 0x12);
    assert_int_equal(v->vram[0xC001], 0x34);
    assert_int_equal(v->vram[0xC002], 0xAB);
    assert_int_equal(v->addr, 0xC004);
    /* an odd address writes the word byte-swapped into its even word */
    cmd(m, 1, 0x0101);
    rg__gen_vdp_data_write(m, 0x5678);
    assert_int_equal(v->vram[0x0100], 0x78);
    assert_int_equal(v->vram[0x0101], 0x56);
    /* reads back */
    cmd(m, 0, 0xC000);
    assert_int_equal(rg__gen_vdp_data_read(m), 0x1234);
    assert_int_equal(rg__gen_vdp_data_read(m), 0xABCD);

    /* CRAM keeps ----BBB-GGG-RRR-; VSRAM 11 bits; both read back, the bits they lack taken from the write FIFO's
     * next entry (the oldest of the last four words written), as a console and Genesis Plus GX do */
    cmd(m, 3, 0x0002);
    rg__gen_vdp_data_write(m, 0xFFFF);
    assert_int_equal(v->cram[1], 0x0EEE);
    cmd(m, 8, 0x0002);
    assert_int_equal(rg__gen_vdp_data_read(m), 0x0EEE | (0x1234 & ~0x0EEE)); /* 0x1234: four words ago */
    cmd(m, 5, 0x0000);
    rg__gen_vdp_data_write(m, 0xFFFF);
    rg__gen_vdp_data_write(m, 0x0123);
    assert_int_equal(v->vsram[0], 0x07FF);
    assert_int_equal(v->vsram[1], 0x0123);
    cmd(m, 4, 0x0002);
    assert_int_equal(rg__gen_vdp_data_read(m), 0x0123 | (0x5678 & 0xF800)); /* 0x5678: four words ago */

    /* half a command, then a status read: the next control word starts a new command */
    rg__gen_vdp_ctrl_write(m, 0x4000);
    assert_int_equal(v->pending, 1);
    uint16_t st = rg__gen_vdp_status(m);
    assert_int_equal(v->pending, 0);
    assert_int_equal(st & 0x0200u, 0x0200u); /* FIFO empty */
    reg(m, 7, 0x21);
    assert_int_equal(v->reg[7], 0x21);

    /* a DMA command with DMA disabled (register 1 bit 4 clear) is a plain command */
    reg(m, 19, 4);
    reg(m, 23, 0x80);
    cmd(m, 0x21, 0x2000);
    assert_int_equal(v->fill, 0);
    assert_int_equal(v->reg[19], 4);
    free(m);
}

static void test_vdp_dma(void **s)
{
    (void)s;
    rg__gen_machine *m = vdp_machine();
    rg__gen_vdp *v = &m->st.vdp;
    reg(m, 1, 0x54); /* display on, DMA on */
    reg(m, 15, 2);

    /* 68000 -> VRAM from work RAM $FF1000: 8 words */
    for (unsigned i = 0; i < 16; i++)
        m->st.ram[(0x1000u + i) ^ 1u] = (uint8_t)(0xA0u + i);
    unsigned src = 0xFF1000u >> 1;
    reg(m, 19, 8), reg(m, 20, 0);
    reg(m, 21, src & 0xFFu), reg(m, 22, (src >> 8) & 0xFFu), reg(m, 23, (src >> 16) & 0x7Fu);
    cmd(m, 0x21, 0x4000);
    for (unsigned i = 0; i < 16; i++)
        assert_int_equal(v->vram[0x4000u + i], 0xA0u + i);
    assert_int_equal(v->vram[0x4010], 0);
    assert_int_equal(v->addr, 0x4010);
    assert_int_equal(v->reg[19] | v->reg[20] << 8, 0);          /* the length counts down to 0 */
    assert_int_equal(v->reg[21] | v->reg[22] << 8, (src + 8u) & 0xFFFFu); /* the source moved on */
    /* its time (Genesis Plus GX's): at power-on the 68000 stands 784,462 master clocks into the frame, in line 229 of
     * it (1,282 into the line, 2,138 before its end); display on, H32: 16 bytes a line, 8 words to VRAM. 5 words fit
     * in this line, 3 in the next (3 * 3420 / 8 = 1282 clocks): the 68000 waits until 230 * 3420 + 1282 */
    assert_int_equal(m->insn_mclk, 784462u);
    assert_int_equal(m->freeze_to, 230u * 3420u + 1282u);
    assert_int_equal(m->freeze_add, 0);
    m->freeze_to = 0;

    /* 68000 -> CRAM from ROM */
    g_rom[0x300] = 0x0E, g_rom[0x301] = 0xEE, g_rom[0x302] = 0x00, g_rom[0x303] = 0x0E;
    reg(m, 19, 2), reg(m, 20, 0), reg(m, 21, 0x80), reg(m, 22, 0x01), reg(m, 23, 0);
    cmd(m, 0x23, 0x0004);
    assert_int_equal(v->cram[2], 0x0EEE);
    assert_int_equal(v->cram[3], 0x000E);
    /* to CRAM a word per byte slot: 2 words in this line, 2 * 3420 / 16 clocks after the instruction */
    assert_int_equal(m->freeze_add, 2u * 3420u / 16u);
    assert_int_equal(m->freeze_to, 0);
    m->freeze_add = 0;

    /* an interrupt enabled while pending reaches the 68000 one instruction later (after a MOVE.W), at once after a
     * MOVE.L */
    v->vint = 1;
    m->st.cpu.ipl = 0;
    m->st.cpu.ir = 0x3940; /* move.w d0,4(a4) */
    reg(m, 1, 0x74);
    assert_int_equal(m->ipl_delay, 2);
    assert_int_equal(m->st.cpu.ipl, 0);
    m->ipl_delay = 0;
    reg(m, 1, 0x54);
    m->st.cpu.ir = 0x2A80; /* move.l d0,(a5) */
    reg(m, 1, 0x74);
    assert_int_equal(m->ipl_delay, 0);
    assert_int_equal(m->st.cpu.ipl, 6);
    reg(m, 1, 0x54);
    v->vint = 0;

    /* fill: the data write is done, then the high byte goes to length bytes at address ^ 1 */
    reg(m, 15, 1);
    reg(m, 19, 6), reg(m, 20, 0), reg(m, 23, 0x80);
    cmd(m, 0x21, 0x8000);
    assert_int_equal(v->fill, 1);
    assert_int_equal(v->vram[0x8000], 0);
    rg__gen_vdp_data_write(m, 0x5A00);
    assert_int_equal(v->fill, 0);
    /* the word write puts $5A,$00 at $8000; then bytes at $8001^1, $8002^1, ... $8006^1 */
    static const uint8_t want[9] = {0x5A, 0x00, 0x5A, 0x5A, 0x5A, 0x5A, 0x00, 0x5A, 0x00};
    assert_memory_equal(&v->vram[0x8000], want, sizeof want);
    assert_int_equal(v->addr, 0x8007);
    /* the fill is done at once but status bit 1 (DMA busy) stays set for its time (6 bytes: a third of a line at
     * worst, 18 bytes a line during the picture in H40); games wait on it */
    assert_int_equal(rg__gen_vdp_status(m) & 2u, 2u);
    m->insn_mclk = (m->st.cpu.cycles += RG__GEN_LINE_MCLK / 2u / 7u) * 7u; /* the VDP's time: the instruction's start */
    assert_int_equal(rg__gen_vdp_status(m) & 2u, 0);
    rg__gen_vdp_data_write(m, 0); /* no fill pending: a plain write does not set it */
    assert_int_equal(rg__gen_vdp_status(m) & 2u, 0);
    m->st.cpu.cycles = 0;
    m->insn_mclk = 0;

    /* a CRAM fill: the data write is done, then the words after it get the write FIFO's next entry (the oldest of
     * the last four words written, here $0222), not the word that started it (as a console and Genesis Plus GX) */
    reg(m, 15, 2);
    cmd(m, 3, 0x0040);
    rg__gen_vdp_data_write(m, 0x0222);
    rg__gen_vdp_data_write(m, 0x0444);
    rg__gen_vdp_data_write(m, 0x0666);
    reg(m, 19, 3), reg(m, 20, 0), reg(m, 23, 0x80);
    cmd(m, 0x23, 0x0050);
    assert_int_equal(v->fill, 1);
    rg__gen_vdp_data_write(m, 0x0888);
    assert_int_equal(v->fill, 0);
    assert_int_equal(v->cram[34], 0x0666);
    static const uint16_t want_cram[5] = {0x0888, 0x0222, 0x0222, 0x0222, 0}; /* CRAM words 40-44 */
    for (unsigned i = 0; i < 5; i++)
        assert_int_equal(v->cram[40 + i], want_cram[i]);
    m->st.dma_end = 0;
    reg(m, 15, 1);

    /* copy: 16 bytes from $4000 to $9000 */
    reg(m, 19, 16), reg(m, 20, 0), reg(m, 21, 0x00), reg(m, 22, 0x40), reg(m, 23, 0xC0);
    cmd(m, 0x20 | 0x10, 0x9000); /* copy uses code bits 5 and 4 (CD5 CD4) */
    assert_memory_equal(&v->vram[0x9000], &v->vram[0x4000], 16);
    assert_int_equal(v->vram[0x9010], 0);
    assert_int_equal(v->reg[21] | v->reg[22] << 8, 0x4010);

    /* the 68000 bus reaches the ports: a word write to $C00004 sets a register, $C00000 writes data */
    uint16_t hv = rg__gen_read16(m, 0xC00008);
    assert_int_equal(hv >> 8, 0xC0); /* power-on: the frame starts at line 192 (mode 4's blank) */
    free(m);
}

/* --- a 68000 program of our own */

/* A line of a frame nobody observes is not drawn, but its sprite overflow and collision flags are what drawing it
 * gives: 22 overlapping 8x8 sprites on lines 8-15 (over the H40 limit of 20 per line), none on line 20. */
static void test_sprite_flags_without_drawing(void **s)
{
    (void)s;
    rg__gen_machine *a = vdp_machine();
    rg__gen_vdp *v = &a->st.vdp;
    v->reg[1] = 0x44;                 /* display on */
    v->reg[12] = 0x81;                /* H40 */
    v->reg[5] = 0x6C;                 /* sprite table at $D800 */
    for (unsigned i = 0; i < 22; i++) {
        uint8_t *e = v->vram + 0xD800u + i * 8u;
        e[0] = 0, e[1] = 128 + 8;     /* y = 8 */
        e[2] = 0;                     /* 1x1 cell */
        e[3] = (uint8_t)(i + 1u < 22u ? i + 1u : 0u);
        e[4] = 0, e[5] = 1;           /* pattern 1 */
        e[6] = 0, e[7] = (uint8_t)(128 + 40 + i * 4u); /* x: each overlaps the next */
    }
    memset(v->vram + 32, 0x11, 32);   /* pattern 1: every pixel colour 1 */
    memcpy(v->sat, v->vram + 0xD800u, 22u * 8u); /* the VDP's copy, as the writes would have made it */
    rg__gen_machine *b = calloc(1, sizeof *b);
    assert_non_null(b);
    *b = *a;
    struct { unsigned line, ovf, col; } want[] = {{8, 1, 1}, {15, 1, 1}, {20, 0, 0}};
    for (unsigned k = 0; k < 3; k++) {
        a->st.vdp.sprite_ovf = a->st.vdp.sprite_col = b->st.vdp.sprite_ovf = b->st.vdp.sprite_col = 0;
        rg__gen_sprite_parse(a, want[k].line); /* a line's sprites are read in the line before it */
        rg__gen_sprite_parse(b, want[k].line);
        rg__gen_render_line(a, want[k].line);
        rg__gen_sprite_line(b, want[k].line);
        assert_int_equal(a->st.vdp.sprite_ovf, want[k].ovf);
        assert_int_equal(a->st.vdp.sprite_col, want[k].col);
        assert_int_equal(b->st.vdp.sprite_ovf, want[k].ovf);
        assert_int_equal(b->st.vdp.sprite_col, want[k].col);
    }
    /* two sprites that only touch: no collision, on both paths */
    v->vram[0xD800u + 3u] = 1, v->vram[0xD808u + 3u] = 0;
    v->vram[0xD80Fu] = 128 + 48;
    v->sat[3] = 1, v->sat[8 + 3] = 0; /* the link bytes in the VDP's copy too (x is read from VRAM) */
    *b = *a;
    a->st.vdp.sprite_col = b->st.vdp.sprite_col = 0;
    rg__gen_sprite_parse(a, 8);
    rg__gen_sprite_parse(b, 8);
    rg__gen_render_line(a, 8);
    rg__gen_sprite_line(b, 8);
    assert_int_equal(a->st.vdp.sprite_col, 0);
    assert_int_equal(b->st.vdp.sprite_col, 0);
    assert_memory_equal(&a->st, &b->st, sizeof a->st);
    free(a);
    free(b);
}

/* The Z80 as the sound CPU, on a bare machine whose 68000 idles (bra.s *): a Z80 program of ours in its RAM sets the
 * bank register to $FF0000 and writes $5A through the window into 68000 work RAM, starts YM2612 timer A (period 100
 * samples) and counts its overflows by polling the status (at $1F01), and counts its V interrupts (IM 1, at $1F00).
 * Then the 68000's bus request stops it, and the reset line restarts it from $0000. */
static const uint8_t k_z80_prog[] = {
    0xF3, 0x31, 0x00, 0x1E, 0xED, 0x56,             /* 0000 di; ld sp,$1E00; im 1 */
    0x21, 0x00, 0x60, 0x36, 0x00,                   /* 0006 ld hl,$6000; ld (hl),0: bank bit 15 = 0 */
    0x36, 0x01, 0x36, 0x01, 0x36, 0x01, 0x36, 0x01, /* 000B bits 16-23 = 1: bank $1FE = $FF0000 */
    0x36, 0x01, 0x36, 0x01, 0x36, 0x01, 0x36, 0x01,
    0x3E, 0x5A, 0x32, 0x10, 0x80,                   /* 001B ld a,$5A; ld ($8010),a: $FF0010 */
    0x21, 0x00, 0x40, 0x36, 0x24, 0x23, 0x36, 0xE7, /* 0020 YM $24 = $E7 */
    0x2B, 0x36, 0x25, 0x23, 0x36, 0x00,             /* 0028 YM $25 = 0: timer A = $39C, 100 samples */
    0x2B, 0x36, 0x27, 0x23, 0x36, 0x05,             /* 002E YM $27 = 5: load A, flag A */
    0xFB, 0x18, 0x19, 0x00,                         /* 0034 ei; jr $0050 */
    0xF5, 0x3A, 0x00, 0x1F, 0x3C, 0x32, 0x00, 0x1F, /* 0038 push af; ($1F00)++ */
    0x06, 0x14, 0x10, 0xFE,                         /* 0040 ld b,20; djnz $: past the line INT is held */
    0xF1, 0xFB, 0xC9,                               /* 0044 pop af; ei; ret */
};
static const uint8_t k_z80_loop[] = {
    0x3A, 0x00, 0x40, 0xE6, 0x01, 0x28, 0xF9,       /* 0050 wait for timer A's flag */
    0x3A, 0x01, 0x1F, 0x3C, 0x32, 0x01, 0x1F,       /* 0057 ($1F01)++ */
    0x3E, 0x15, 0x32, 0x01, 0x40, 0x18, 0xEB,       /* 005E YM $27 = $15: reset flag A; jr $0050 */
};

static void test_z80_sound_cpu(void **s)
{
    (void)s;
    rg__gen_machine *m = vdp_machine();
    g_rom[0x200] = 0x60, g_rom[0x201] = 0xFE;       /* the 68000: bra.s * */
    rg__gen_power_on(m);
    rg__gen_state *st = &m->st;
    assert_int_equal(st->z80_reset, 1);
    memcpy(st->zram, k_z80_prog, sizeof k_z80_prog);
    memcpy(st->zram + 0x50, k_z80_loop, sizeof k_z80_loop);
    for (unsigned f = 0; f < 3; f++) /* held in reset: nothing runs */
        rg__gen_run_frame(m);
    assert_int_equal(st->zram[0x1F00], 0);
    rg__gen_write16(m, 0xA11200, 0x0100, 2);        /* reset released: it runs */
    for (unsigned f = 0; f < 10; f++)
        rg__gen_run_frame(m);
    assert_int_equal(st->ram[0x10 ^ 1], 0x5A);      /* through the bank window */
    assert_int_equal(st->z80_bank, 0x1FE);
    /* one INT per frame, asserted from 788 master clocks into the frame to the end of its first line: in the first
     * frame the program is still setting up (EI comes later), so 9 */
    assert_int_equal(st->zram[0x1F00], 9);
    /* 10 frames = 8,960,400 master clocks = 8889 samples: 88 overflows of 100 samples (less the start-up) */
    unsigned ovf = st->zram[0x1F01];
    print_message("z80: %u interrupts, %u timer A overflows in 10 frames\n", st->zram[0x1F00], ovf);
    assert_in_range(ovf, 86, 89);
    /* without the Z80's bus the 68000 reads open bus there (the prefetched word) and its writes are lost */
    m->st.cpu.irc = 0x4E71;
    assert_int_equal(rg__gen_read16(m, 0xA01F00), 0x4E71);
    rg__gen_write16(m, 0xA01F00, 0x7700, 2);
    assert_int_equal(st->zram[0x1F00], 9);
    /* bus request: granted (bit 8 reads 0) and the Z80 stops */
    assert_int_equal(rg__gen_read16(m, 0xA11100) & 0x100u, 0x100u);
    rg__gen_write16(m, 0xA11100, 0x0100, 2);
    assert_int_equal(rg__gen_read16(m, 0xA11100) & 0x100u, 0);
    assert_int_equal(rg__gen_read16(m, 0xA01F00) >> 8, 9); /* now the 68000 reads the Z80's RAM */
    uint64_t held = m->freeze_add;
    rg__gen_write16(m, 0xA01F10, 0x3300, 2);           /* and writes it, 2 clocks (14 master clocks) longer */
    assert_int_equal(st->zram[0x1F10], 0x33);
    assert_int_equal(m->freeze_add, held + 14u);
    m->freeze_add = held;
    for (unsigned f = 0; f < 2; f++)
        rg__gen_run_frame(m);
    assert_int_equal(st->zram[0x1F00], 9);
    assert_int_equal(st->zram[0x1F01], ovf);
    rg__gen_write16(m, 0xA11100, 0x0000, 2);        /* released: it goes on */
    for (unsigned f = 0; f < 2; f++)
        rg__gen_run_frame(m);
    assert_int_equal(st->zram[0x1F00], 11);
    assert_true(st->zram[0x1F01] > ovf);
    /* the timer's flag as the 68000 reads it, then the reset line: the YM2612's timers stop with it */
    rg__gen_write16(m, 0xA11200, 0x0000, 2);
    assert_int_equal(st->ym_mode, 0);
    assert_int_equal(rg__gen_read16(m, 0xA04000) & 3u, 0);
    rg__gen_run_frame(m);
    assert_int_equal(st->zram[0x1F00], 11);
    assert_int_equal(st->z80.pc, 0);
    assert_int_equal(rg__gen_state_check(st), RG_OK);
    st->z80_bank = 0x200;
    assert_int_equal(rg__gen_state_check(st), RG_ESTATE);
    assert_non_null(strstr(rg_error_last(), "z80_bank"));
    free(m);
}

static void put16(uint8_t *p, uint32_t a, uint16_t v)
{
    p[a] = (uint8_t)(v >> 8);
    p[a + 1] = (uint8_t)v;
}

/* Counts V interrupts in $FF0000 (word) and stores the pad's TH-high and TH-low reads at $FF0002/$FF0003. */
static void make_program(uint8_t *rom, size_t size)
{
    memset(rom, 0, size);
    put16(rom, 0, 0x00FF), put16(rom, 2, 0xFFF0); /* ssp */
    put16(rom, 4, 0x0000), put16(rom, 6, 0x0200); /* pc */
    put16(rom, 0x78, 0x0000), put16(rom, 0x7A, 0x0300); /* level 6 autovector */
    static const uint16_t boot[] = {
        0x33FC, 0x8164, 0x00C0, 0x0004, /* move.w #$8164,$C00004: display on, V interrupt on */
        0x13FC, 0x0040, 0x00A1, 0x0009, /* move.b #$40,$A10009: TH is an output */
        0x46FC, 0x2000,                 /* move.w #$2000,sr */
        0x60FE,                         /* bra.s * */
    };
    for (size_t i = 0; i < sizeof boot / 2; i++)
        put16(rom, 0x200 + 2 * (uint32_t)i, boot[i]);
    static const uint16_t irq[] = {
        0x5279, 0x00FF, 0x0000,         /* addq.w #1,$FF0000 */
        0x13FC, 0x0040, 0x00A1, 0x0003, /* move.b #$40,$A10003 (TH high) */
        0x13F9, 0x00A1, 0x0003, 0x00FF, 0x0002, /* move.b $A10003,$FF0002 */
        0x13FC, 0x0000, 0x00A1, 0x0003, /* move.b #0,$A10003 (TH low) */
        0x13F9, 0x00A1, 0x0003, 0x00FF, 0x0003, /* move.b $A10003,$FF0003 */
        0x4E73,                         /* rte */
    };
    for (size_t i = 0; i < sizeof irq / 2; i++)
        put16(rom, 0x300 + 2 * (uint32_t)i, irq[i]);
}

static rg_emu *open_gen(const char *rom, const char *core)
{
    return test_open_in(rom, core, "Genesis", 0);
}

static void test_program(void **s)
{
    (void)s;
    static uint8_t rom[0x1000];
    char path[1024];
    make_program(rom, sizeof rom);
    test_write_file(test_tmp_path("rg_gen_prog.md", path, sizeof path), rom, sizeof rom);
    rg_emu *emu = open_gen(path, "genesis");
    assert_string_equal(rg_emu_core_name(emu), "genesis");
    rg_emu_set_buttons(emu, 0, (1u << 0) | (1u << 3) | (1u << 4)); /* B, START, UP */
    for (unsigned i = 0; i < 10; i++)
        assert_int_equal(rg_emu_run(emu), RG_OK);
    /* RAM as the systems file reads it: 16-bit words in host order (ram_base $FF0000, overlay) */
    size_t n = rg_emu_ram_size(emu);
    assert_int_equal(n, 0x10000);
    static uint8_t ram[0x10000];
    assert_int_equal(rg_emu_ram_copy(emu, ram, sizeof ram), RG_OK);
    unsigned count = ram[0] | ram[1] << 8;
    assert_int_equal(count, 9); /* one V interrupt per frame but the first after power-on (as Genesis Plus GX) */
    assert_int_equal(ram[3], 0x40 | (0x3F ^ (0x10 | 0x01))); /* $FF0002, TH high: 1 C B R L D U, B and UP low */
    assert_int_equal(ram[2], 0x3F ^ (0x20 | 0x01) ^ 0x0C); /* $FF0003, TH low: 0 S A 0 0 D U, START and UP low */
    rg_frame f;
    assert_int_equal(rg_emu_frame(emu, &f), RG_OK);
    assert_int_equal(f.width, 256); /* register 12 never set: H32, as Genesis Plus GX powers on */
    assert_int_equal(f.height, 224);
    assert_int_equal(f.format, RG_PIXEL_XRGB8888);
    rg_emu_free(emu);
    remove(path);
}

static void test_bad_roms(void **s)
{
    (void)s;
    static uint8_t rom[2048];
    char path[1024];
    test_tmp_path("rg_gen_bad.md", path, sizeof path);
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = "genesis";
    o.system = "Genesis";
    o.log = test_quiet_log;
    rg_emu *emu = NULL;
    test_write_file(path, rom, 510); /* under 512 bytes: refused (by the host's ROM check before the core) */
    assert_int_not_equal(rg_emu_open(&emu, path, &o), RG_OK);
    assert_null(emu);
    test_write_file(path, rom, 1001); /* odd: taken, its last word padded with 0 (a demo of 4095 bytes exists) */
    assert_int_equal(rg_emu_open(&emu, path, &o), RG_OK);
    assert_int_equal(rg_emu_run(emu), RG_OK);
    rg_emu_free(emu);
    emu = NULL;
    uint8_t *big = calloc(1, (4u << 20) + 2u); /* over 4 MiB */
    assert_non_null(big);
    test_write_file(path, big, (4u << 20) + 2u);
    free(big);
    assert_int_equal(rg_emu_open(&emu, path, &o), RG_EINVAL);
    assert_null(emu);
    assert_non_null(strstr(rg_error_last(), "4 MiB"));
    /* an interleaved SMD image (512-byte header with $AA $BB at 8) */
    static uint8_t smd[16384 + 512];
    smd[8] = 0xAA, smd[9] = 0xBB;
    test_write_file(path, smd, sizeof smd);
    assert_int_equal(rg_emu_open(&emu, path, &o), RG_EINVAL);
    assert_non_null(strstr(rg_error_last(), "SMD"));
    remove(path);
}

/* The pads as Genesis Plus GX models them (docs/genesis.md, I/O): a 6-button pad (a ROM header naming '6') counts
 * TH's high-to-low edges: the third TH-low read gives ?0SA0000, the fourth TH-high ?1CBMXYZ, and 26 lines without an
 * edge restart the count; a 3-button pad (header 'J') reads ?1CBRLDU / ?0SA00DU whatever the edges. */
static uint8_t pad_step(rg__gen_machine *m, uint8_t th)
{
    rg__gen_write16(m, 0xA10002, th, 1);
    return (uint8_t)rg__gen_read16(m, 0xA10002);
}

static void test_pads(void **s)
{
    (void)s;
    rg__gen_machine *m = vdp_machine();
    assert_int_equal(m->pad6, 0); /* no '6' in the header */
    m->pad[0] = (uint16_t)(1u << 10 | 1u << 4); /* X (libretro L) and UP */
    rg__gen_write16(m, 0xA10008, 0x40, 1);     /* TH is an output */
    for (unsigned k = 0; k < 4; k++) {
        assert_int_equal(pad_step(m, 0x40), 0x7E); /* ?1CBRLDU: UP low */
        assert_int_equal(pad_step(m, 0x00), 0x32); /* ?0SA00DU: UP low, bits 3-2 read 0 */
    }
    m->pad6 = 1;
    rg__gen_pads_line(&m->st); /* the count restarts after 26 lines */
    for (unsigned k = 0; k < 27; k++)
        rg__gen_pads_line(&m->st);
    static const uint8_t want[8] = {0x7E, 0x32, 0x7E, 0x32, 0x7E, 0x30, 0x7B, 0x3F};
    for (unsigned k = 0; k < 8; k++)
        assert_int_equal(pad_step(m, k & 1u ? 0x00 : 0x40), want[k]); /* ...?0SA0000, ?1CBMXYZ (X low), ?0SA1111 */
    for (unsigned k = 0; k < 28; k++)
        rg__gen_pads_line(&m->st);
    assert_int_equal(pad_step(m, 0x40), 0x7E); /* a 3-button read again */
    assert_int_equal(pad_step(m, 0x00), 0x32);
    free(m);
}

static void test_hostile_states(void **s)
{
    (void)s;
    static uint8_t rom[0x1000];
    char path[1024];
    make_program(rom, sizeof rom);
    test_write_file(test_tmp_path("rg_gen_state.md", path, sizeof path), rom, sizeof rom);
    rg_emu *emu = open_gen(path, "genesis");
    for (unsigned i = 0; i < 5; i++)
        assert_int_equal(rg_emu_run(emu), RG_OK);
    size_t n = 0;
    uint8_t *good = test_state_save(emu, &n), *bad = malloc(n);
    assert_non_null(bad);
    uint64_t ram0 = test_ram_hash(emu);
    struct { size_t off; uint8_t val; const char *why; } cases[] = {
        {0, 'X', "not a genesis state"},
        {8, 9, "not a genesis state"},                                             /* version */
        {16, 0x55, "another ROM"},                                                  /* rom hash */
        {HEADER_SIZE + offsetof(rg__gen_state, vdp) + offsetof(rg__gen_vdp, cram) + 1, 0x10, "vdp.cram"},
        {HEADER_SIZE + offsetof(rg__gen_state, vdp) + offsetof(rg__gen_vdp, code), 0x40, "vdp.code"},
        {HEADER_SIZE + offsetof(rg__gen_state, vdp) + offsetof(rg__gen_vdp, line), 7, "vdp.line"},
        {HEADER_SIZE + offsetof(rg__gen_state, z80_busreq), 2, "z80"},
        {HEADER_SIZE + offsetof(rg__gen_state, cpu) + offsetof(rg_m68k, ipl), 9, "cpu"},
        {HEADER_SIZE + offsetof(rg__gen_state, cpu) + offsetof(rg_m68k, cycles) + 3, 0x77, "cycles"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(bad, good, n);
        bad[cases[i].off] ^= cases[i].val;
        assert_int_equal(rg_emu_state_load(emu, bad, n), RG_ESTATE);
        if (!strstr(rg_error_last(), cases[i].why))
            fail_msg("case %zu: '%s' does not name %s", i, rg_error_last(), cases[i].why);
        assert_true(test_ram_hash(emu) == ram0);
    }
    assert_int_equal(rg_emu_state_load(emu, good, n - 1), RG_ESTATE); /* truncated */
    assert_int_equal(rg_emu_state_load(emu, good, n), RG_OK);
    free(good);
    free(bad);
    rg_emu_free(emu);
    remove(path);
}

/* --- Airstriker-Genesis (stable-retro's wheel) */

static int airstriker(char *out, size_t cap)
{
    return test_wheel_data("Airstriker-Genesis*/rom.md", out, cap);
}

/* START pressed for 8 frames in every 40 from frame 350 (the title reads the pad from about frame 354), fire (B) and
 * moves otherwise */
static uint16_t script(unsigned f)
{
    if (f >= 350u && f < 600u && f % 40u < 8u)
        return 1u << 3;
    uint32_t x = (f / 6u + 1u) * 2654435761u;
    return (uint16_t)((x >> 13) & 0xF0u) | 1u;
}

/* Every frame's state loads back, also where the 68000 stopped a few master clocks before the frame's start (its
 * cycle count is in 68000 clocks, 7 master clocks each: the check once read the count alone and refused them, so a
 * redraw at an episode's end, which rewinds through a state, failed mid-run) or frozen by a DMA past it. On our
 * Genesis test ROM and, when installed, Airstriker; the first case must have occurred. */
static unsigned states_load_back(const char *rom, unsigned frames)
{
    rg_emu *emu = open_gen(rom, "genesis"), *other = open_gen(rom, "genesis");
    size_t n = 0, wr = 0;
    assert_int_equal(rg_emu_state_size(emu, &n), RG_OK);
    uint8_t *st = malloc(n);
    assert_non_null(st);
    unsigned early = 0;
    for (unsigned i = 0; i < frames; i++) {
        rg_emu_set_buttons(emu, 0, script(i));
        assert_int_equal(rg_emu_run(emu), RG_OK);
        assert_int_equal(rg_emu_state_save(emu, st, n, &wr), RG_OK);
        rg__gen_state g;
        memcpy(&g, st + HEADER_SIZE, sizeof g);
        early += g.cpu.cycles * 7u < (uint64_t)g.frame * RG__GEN_FRAME_MCLK;
        if (rg_emu_state_load(other, st, wr) != RG_OK)
            fail_msg("%s: the state after frame %u does not load: %s", rom, i, rg_error_last());
    }
    free(st);
    rg_emu_free(emu);
    rg_emu_free(other);
    return early;
}

static void test_states_load_back(void **s)
{
    (void)s;
    char rom[2200];
    unsigned early = states_load_back(test_source_path("tests/roms/bin/test.md", rom, sizeof rom), 1200);
    if (airstriker(rom, sizeof rom))
        early += states_load_back(rom, 1800);
    assert_true(early > 0);
}

static void test_airstriker(void **s)
{
    (void)s;
    char rom[2200];
    if (!airstriker(rom, sizeof rom)) {
        print_message("skipped: no Airstriker-Genesis in .venv's stable-retro\n");
        skip();
    }
    rg_emu *emu = open_gen(rom, "genesis"), *skip4 = open_gen(rom, "genesis");
    rg_frame f;
    assert_int_equal(rg_emu_frame(emu, &f), RG_OK);
    assert_int_equal(f.height, 192); /* power-on: mode 4 (register 1 bit 2 clear), shown 256x192 as GPGX does */
    assert_int_equal(f.width, 256);
    uint64_t hashes[12];
    unsigned max_colours = 0;
    size_t n = 0, wr = 0;
    assert_int_equal(rg_emu_state_size(emu, &n), RG_OK);
    uint8_t *st = malloc(n), *st4 = malloc(n);
    assert_non_null(st);
    assert_non_null(st4);
    for (unsigned i = 0; i < 600; i++) {
        rg_emu_set_buttons(emu, 0, script(i));
        assert_int_equal(rg_emu_run(emu), RG_OK);
        /* frame skip 4: three frames of every four not drawn; the machine (VDP status flags included) and the
         * drawn frame must be what drawing every frame gives */
        rg_emu_set_buttons(skip4, 0, script(i));
        assert_int_equal(rg_emu_set_av_enable(skip4, i % 4u == 3u, 0), RG_OK);
        assert_int_equal(rg_emu_run(skip4), RG_OK);
        if (i % 4u == 3u) {
            assert_int_equal(rg_emu_state_save(emu, st, n, &wr), RG_OK);
            assert_int_equal(rg_emu_state_save(skip4, st4, n, &wr), RG_OK);
            if (memcmp(st, st4, n) != 0 || test_frame_hash(emu) != test_frame_hash(skip4))
                fail_msg("frame %u: skipping the drawing of frames changed the machine or the picture", i + 1);
        }
        if (i % 50u == 49u) {
            hashes[i / 50u] = test_frame_hash(emu);
            print_message("frame %u: %016llx\n", i + 1, (unsigned long long)hashes[i / 50u]);
            unsigned c = test_frame_colours(emu);
            if (c > max_colours)
                max_colours = c;
        }
    }
    assert_int_equal(rg_emu_frame(emu, &f), RG_OK);
    assert_int_equal(f.width, 320);
    print_message("airstriker on genesis: up to %u colours in a frame\n", max_colours);
    assert_true(max_colours >= 8); /* a drawn picture */
    unsigned distinct = 0;
    for (unsigned i = 1; i < 12; i++)
        distinct += hashes[i] != hashes[i - 1];
    assert_true(distinct >= 4); /* it moves */

    rg_emu_free(skip4);
    free(st4);
    /* snapshot: the next 60 frames replay identically */
    assert_int_equal(rg_emu_state_save(emu, st, n, &wr), RG_OK);
    test_state_replays(emu, st, n, script, 700, 60);
    free(st);
    rg_emu_free(emu);
}

/* Against Genesis Plus GX from the same wheel: the share of equal RAM bytes and of equal pixels (within one 3-bit
 * colour step) at a few frames, printed; not asserted yet (docs/genesis.md). */
static void test_airstriker_vs_gpgx(void **s)
{
    (void)s;
    char rom[2200];
#if defined(__SANITIZE_ADDRESS__)
    print_message("skipped: the foreign core is not run under ASan\n");
    skip();
#endif
    test_use_wheel_cores();
    if (!airstriker(rom, sizeof rom) || !test_have_wheel_core("genesis_plus_gx")) {
        print_message("skipped: no Airstriker-Genesis or genesis_plus_gx in .venv's stable-retro\n");
        skip();
    }
    rg_emu *gx = open_gen(rom, "genesis_plus_gx"), *us = open_gen(rom, "genesis");
    assert_string_equal(rg_emu_core_name(gx), "genesis_plus_gx");
    assert_string_equal(rg_emu_core_name(us), "genesis");
    static uint8_t ra[0x10000], rb[0x10000];
    for (unsigned i = 0; i < 600; i++) {
        rg_emu_set_buttons(gx, 0, script(i));
        rg_emu_set_buttons(us, 0, script(i));
        assert_int_equal(rg_emu_run(gx), RG_OK);
        assert_int_equal(rg_emu_run(us), RG_OK);
        if (i % 100u != 99u)
            continue;
        assert_int_equal(rg_emu_mem_read(gx, 0xFF0000, ra, sizeof ra), RG_OK);
        assert_int_equal(rg_emu_mem_read(us, 0xFF0000, rb, sizeof rb), RG_OK);
        unsigned eq = 0;
        for (size_t k = 0; k < sizeof ra; k++)
            eq += ra[k] == rb[k];
        rg_frame fa, fb;
        assert_int_equal(rg_emu_frame(gx, &fa), RG_OK);
        assert_int_equal(rg_emu_frame(us, &fb), RG_OK);
        unsigned close = 0, total = 0;
        if (fa.width == fb.width && fa.height == fb.height) {
            for (unsigned y = 0; y < fb.height; y++)
                for (unsigned x = 0; x < fb.width; x++) {
                    uint32_t pb = ((const uint32_t *)fb.data)[(size_t)y * (fb.pitch / 4) + x];
                    unsigned r, g, b;
                    if (fa.format == RG_PIXEL_RGB565) {
                        uint16_t p = ((const uint16_t *)fa.data)[(size_t)y * (fa.pitch / 2) + x];
                        r = (p >> 11) << 3, g = ((p >> 5) & 63u) << 2, b = (p & 31u) << 3;
                    } else {
                        uint32_t p = ((const uint32_t *)fa.data)[(size_t)y * (fa.pitch / 4) + x];
                        r = (p >> 16) & 255u, g = (p >> 8) & 255u, b = p & 255u;
                    }
                    int dr = (int)r - (int)((pb >> 16) & 255u), dg = (int)g - (int)((pb >> 8) & 255u),
                        db = (int)b - (int)(pb & 255u);
                    close += abs(dr) < 40 && abs(dg) < 40 && abs(db) < 40;
                    total++;
                }
        }
        print_message("frame %u: RAM %.1f%% equal, pixels %.1f%% close (gpgx %ux%u, ours %ux%u)\n", i + 1,
                      100.0 * eq / sizeof ra, total ? 100.0 * close / total : 0.0, fa.width, fa.height, fb.width,
                      fb.height);
    }
    rg_emu_free(gx);
    rg_emu_free(us);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vdp_registers_and_ports),
        cmocka_unit_test(test_vdp_dma),
        cmocka_unit_test(test_pads),
        cmocka_unit_test(test_sprite_flags_without_drawing),
        cmocka_unit_test(test_z80_sound_cpu),
        cmocka_unit_test(test_program),
        cmocka_unit_test(test_bad_roms),
        cmocka_unit_test(test_hostile_states),
        cmocka_unit_test(test_states_load_back),
        cmocka_unit_test(test_airstriker),
        cmocka_unit_test(test_airstriker_vs_gpgx),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
