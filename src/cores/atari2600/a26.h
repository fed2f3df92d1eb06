/* The Atari 2600 machine: state, bus, frame loop (machine-internal API of src/cores/atari2600).
 *
 * The whole emulated machine is one plain struct, rg__a26_state (no pointers): a snapshot is a copy of it. The
 * machine wrapper rg__a26_machine adds what is not state: the ROM bytes, the framebuffer, the palette, the inputs
 * of the frame and the configuration.
 *
 * Frames are Stella 3.9.3's (what ALE and stable-retro's stella core use): a frame ends after the instruction that
 * turns VSYNC off at least one line after it was turned on; after 25,000 instructions without that the run returns
 * and the next run goes on with the same frame; the first TIA write `max_lines` lines into a frame ends it. */
#ifndef RG_SRC_CORES_ATARI2600_A26_H
#define RG_SRC_CORES_ATARI2600_A26_H

#include <stddef.h>
#include <stdint.h>

#include "cores/atari2600/cart.h"
#include "cores/atari2600/paddles.h"
#include "cores/atari2600/riot.h"
#include "cores/atari2600/tia.h"
#include "cpu/m6502/m6502.h"

#define RG__A26_WIDTH 160
#define RG__A26_MAX_HEIGHT 320     /* lines Stella keeps per frame */
#define RG__A26_INSN_BUDGET 25000  /* instructions per run (Stella's TIA::update) */
#define RG__A26_LINES_MAX 343      /* the most lines a frame is counted with (the PAL limit + 1) */
/* A frame still going on after this many CPU cycles (no VSYNC, no TIA write) is ended by the run, so the frame's
 * clocks (x3) stay far from overflowing. */
#define RG__A26_FRAME_CYCLES_CUT (1u << 26)
/* The most cycles one run adds: instructions of at most 8 cycles plus 3 writes that each halt for up to 75
 * (WSYNC/RSYNC). */
#define RG__A26_RUN_CYCLES_MAX (RG__A26_INSN_BUDGET * 256u)

typedef struct rg__a26_state {
    rg_m6502 cpu;
    uint8_t ram[128];
    uint8_t databus;       /* the last byte on the data bus (undriven TIA read bits show it) */
    uint8_t partial;       /* the frame in progress goes on in the next run */
    uint8_t color_loss;    /* 50 Hz: the last frame had an odd line count, the colours are lost */
    uint8_t pad;
    uint32_t cycles;       /* CPU cycles since the frame started (Stella's system cycle counter) */
    uint32_t rng;          /* Stella's random generator (power-on RAM, timer and CPU registers) */
    rg__a26_riot riot;
    rg__a26_tia tia;
    rg__a26_cart cart;
    rg__a26_paddles paddles[2];   /* left and right port, when paddles are plugged in */
} rg__a26_state;

typedef struct rg__a26_machine {
    rg__a26_state st;

    /* outside the state */
    const uint8_t *rom;
    size_t rom_size;
    unsigned rom_mask;             /* 2K/4K cartridges: ROM offset of a $1xxx address */
    const uint8_t *bank;           /* 4K-bank cartridges: the selected bank (refreshed from st.cart), whose bytes
                                    * rom4k holds (NULL: none yet) */
    uint16_t fast_lo, fast_len;    /* ... and the window of plain ROM reads in it */
    uint16_t fast_len2;            /* fast_len - 1 (0 for none): window offsets a with a and a + 1 in it */
    const uint8_t *slice[4];       /* E0: the ROM of each 1 KiB slice of the window (refreshed from st.cart) */
    uint32_t *fb;                  /* the frame being drawn: RG__A26_WIDTH x height, XRGB8888 */
    uint32_t *fb_prev;             /* the other one: like Stella the two swap at each frame start, so lines a
                                    * short frame does not reach show the frame before the last */
    uint8_t *fb8, *fb8_prev;       /* the same as palette indices, what the wide painter paints instead: colour
                                    * register / 2, + 128 for the colour-loss palette (RG__A26_LOSS) */
    const uint32_t *palette;       /* 128 colours */
    const uint32_t *palette_loss;  /* 50 Hz colour loss (NULL: none) */
    rg__a26_inputs in;
    int32_t ystart;                /* first frame line shown */
    int32_t height;                /* lines shown */
    uint8_t paddle_port[2];        /* the port has paddles (else a joystick) */
    double fps;                    /* Stella's frame rate (59.92 or 49.92): its paddle timing uses it */
    uint32_t max_lines;            /* a TIA write after this many lines ends the frame (290 NTSC, 342 PAL) */
    uint32_t stop_lines;           /* lines the TIA draws per frame (Stella's stop-display point) */
    uint8_t video;                 /* write pixels in this run */
    uint8_t wide_paint;            /* paint palette indices into fb8 with AVX-512 masked stores (the CPU has them;
                                    * the same pixels once through the palette) instead of XRGB8888 into fb */
    uint8_t tia_avx2;              /* draw with tia_render.c's AVX2 instance (a26.h's RG__TIA_AVX2) */
    uint8_t audio;                 /* produce samples in this run */
    uint8_t snoop;                 /* the cart watches accesses below $1000 */
    uint32_t budget;               /* instructions left in this run; 0 ends it after the current instruction */
    int32_t tia_clock;             /* clock of the last TIA access (+ its write delay): drawn up to it by a run's end */
    uint32_t write_cycle;          /* cycle of the last bus write */
    uint32_t prev_write_cycle;     /* ... of the one before (a write right after a write does not halt on WSYNC) */
    /* The line being drawn since the last flush (tia_render.c): each object's pixels in the segments drawn, the
     * pixels forced black (VBLANK, the HMOVE blank), the objects seen, and the pixels of line acc_line drawn,
     * acc_x0..acc_x1-1 (none when acc_x1 <= acc_x0). Empty at the end of every run. */
    uint64_t acc[RG__TIA_NOBJ][3];
    uint64_t acc_black[3];
    int32_t acc_line;
    int16_t acc_x0, acc_x1;
    uint8_t acc_en;
    int16_t *abuf;                 /* mono samples of this run */
    size_t alen, acap;
    int aerr;                      /* the sample buffer could not grow */
    /* 2K/4K cartridges: the $1000-$1FFF window (a 2K image mirrored); 4K-bank cartridges (F8/F6/F4/FA, FE): a copy
     * of the selected bank. In the machine so that the CPU loop reads it at a constant offset from the machine
     * pointer (no ROM pointer or mask held in registers) */
    uint8_t rom4k[4096];
} rg__a26_machine;

/* Stella's random generator (a plain LCG; its output is the low byte for RAM). */
static inline uint32_t rg__a26_rand(rg__a26_state *s)
{
    return rg__a26_rng_next(&s->rng);
}

/* a26_core.c: the core behind the internal core interface, rg__a26_open, is declared in a26_core.h. */

/* a26_machine.c */
/* Power-on: RAM, timer and CPU registers as Stella draws them, TIA and RIOT cleared, the cart at its start banks,
 * the CPU at the reset vector. The cart must be initialised (st.cart) and m->rom set before. `after_detection`:
 * Stella reset the machine once already for its NTSC/PAL detection, which moved its generator on. */
void rg__a26_power_on(rg__a26_machine *m, int after_detection);
/* The console's reset as Stella's libretro core does it: all chips reset, the generator going on. */
void rg__a26_soft_reset(rg__a26_machine *m);
/* Runs until the frame ends (or the instruction budget is spent). */
void rg__a26_run_frame(rg__a26_machine *m);
/* Line timing (60 or 50 Hz: max_lines, stop_lines), palette, and the window of frame lines shown. */
void rg__a26_set_timing(rg__a26_machine *m, int hz50, int pal_colours, int32_t ystart, int32_t height);

/* Checks a state taken from outside (a save state, e.g. edited) against the ROM: every field that the machine uses
 * as an index, shift, bank, counter or clock must be one the machine itself can produce, so that running it stays
 * well defined. RG_ESTATE with a message naming the field otherwise (the state is not used). */
int rg__a26_state_check(const rg__a26_state *s, const uint8_t *rom, size_t rom_size);

/* a26_stella_state.c: Stella 3.9.3 save states (what stable-retro's stella core writes). */
/* Nonzero when the bytes start like a Stella 3.9.3 state (its version string); the layout is checked by the
 * reader. */
int rg__a26_stella_state_sniff(const void *src, size_t len);
/* Converts a Stella 3.9.3 state into *out. `fresh` is the machine as it is right after power-on for this ROM (Stella
 * is reloaded before a state is loaded): what Stella does not save (its random generator, the paddles' charges, the
 * fire button latches, the sound counters) is taken from it. Every field is read and checked against the layout
 * (names, booleans, ranges), the cartridge must be the layout this ROM runs as, and the result must pass
 * rg__a26_state_check; otherwise RG_ESTATE with a message naming the field, and *out is not written. */
int rg__a26_stella_state_read(const void *src, size_t len, const rg__a26_state *fresh, const uint8_t *rom,
                              size_t rom_size, rg__a26_state *out);

/* tia_regs.c */
void rg__tia_reset(rg__a26_tia *t);
/* Recomputes the values derived from the registers (object graphics, enable bits) and marks every object for
 * redrawing: for a TIA state built from outside (a converted save state). */
void rg__tia_rederive(rg__a26_tia *t);
/* The coverage bitmaps are a cache of the registers, rebuilt when marked: a saved state carries none (zeroed, every
 * object marked), so that its bytes depend on the machine alone and not on when the cache was last filled, and a
 * loaded one is marked whole again (its bitmaps are not checked against its registers). */
void rg__tia_drop_cache(rg__a26_tia *t);
/* The TIA part of rg__a26_state_check; `now` is the frame's colour clock (cycles x 3). */
int rg__tia_check(const rg__a26_tia *t, int32_t now);
void rg__tia_write(rg__a26_machine *m, uint16_t addr, uint8_t value);
uint8_t rg__tia_read(rg__a26_machine *m, uint16_t addr);
/* Start and end of a line while drawing (pending HMOVE clocks, suppressed first copies). */
void rg__tia_line_start(rg__a26_tia *t);
void rg__tia_line_end(rg__a26_tia *t);

/* tia_render.c */
/* Whether this CPU has what the AVX-512 painter needs (a26_core.c sets m->wide_paint where it allocates fb8). */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define RG__TIA_WIDE_PAINT 1
#else
#define RG__TIA_WIDE_PAINT 0
#endif
int rg__tia_wide_paint_supported(void);
/* The index of the colour-loss palette's colours in fb8 (added to colour register / 2). */
#define RG__A26_LOSS 128u
/* tia_render.c is compiled twice: for the baseline instruction set (names ending _base) and, with GCC on x86, for
 * AVX2 (tia_render_avx2.c, names ending _avx2), picked at each call by m->tia_avx2 (the CPU has AVX2; a26_core.c).
 * The pixels and latches are the same either way (test_a26_features compares them on real games). */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && !defined(__clang__)
#define RG__TIA_AVX2 1
#else
#define RG__TIA_AVX2 0
#endif
int rg__tia_avx2_supported(void);
#define RG__TIA_RENDER_DECLARE(name, ...) void name##_base(__VA_ARGS__); void name##_avx2(__VA_ARGS__);
RG__TIA_RENDER_DECLARE(rg__tia_update, rg__a26_machine *m, int32_t clock)
RG__TIA_RENDER_DECLARE(rg__tia_flush, rg__a26_machine *m)
RG__TIA_RENDER_DECLARE(rg__tia_collisions, rg__a26_machine *m)
RG__TIA_RENDER_DECLARE(rg__tia_clear_lines, rg__a26_machine *m, int32_t from, int32_t to)
#undef RG__TIA_RENDER_DECLARE
#if RG__TIA_AVX2
#define RG__TIA_PICK(m, name, ...) ((m)->tia_avx2 ? name##_avx2(__VA_ARGS__) : name##_base(__VA_ARGS__))
#else
#define RG__TIA_PICK(m, name, ...) name##_base(__VA_ARGS__)
#endif
/* Brings the picture and the collision latches up to `clock` (colour clocks, frame relative). */
static inline void rg__tia_update(rg__a26_machine *m, int32_t clock) { RG__TIA_PICK(m, rg__tia_update, m, clock); }
/* Paints the pixels drawn since the last flush and latches their collisions (the picture and the collision
 * registers are then up to date with the last update); rg__tia_collisions latches only. Writes that change how
 * drawn pixels are painted (colours, CTRLPF) or the latches (CXCLR) flush first. */
static inline void rg__tia_flush(rg__a26_machine *m) { RG__TIA_PICK(m, rg__tia_flush, m); }
static inline void rg__tia_collisions(rg__a26_machine *m) { RG__TIA_PICK(m, rg__tia_collisions, m); }
/* Clears lines [from, to) of the frame (relative to the frame start) in both framebuffers. */
static inline void rg__tia_clear_lines(rg__a26_machine *m, int32_t from, int32_t to)
{
    RG__TIA_PICK(m, rg__tia_clear_lines, m, from, to);
}

/* tia_audio.c */
void rg__tia_audio_reset(rg__a26_tia *t);
/* The sound part of rg__tia_check: channel registers and counters, the sample clock near `now`. */
int rg__tia_audio_check(const rg__a26_tia *t, int32_t now);
/* Produces the samples due up to `clock` (2 per line) with the current registers. */
void rg__tia_audio_run(rg__a26_machine *m, int32_t clock);
/* An AUDC0..AUDV1 write (reg 0x15..0x1A). */
void rg__tia_audio_write(rg__a26_machine *m, unsigned reg, uint8_t value);

/* palette.c */
extern const uint32_t rg__a26_palette_ntsc[128];
extern const uint32_t rg__a26_palette_pal[128];
extern const uint32_t rg__a26_palette_pal_loss[128];
extern const uint32_t rg__a26_palette_ntsc_loss[128];

#endif
