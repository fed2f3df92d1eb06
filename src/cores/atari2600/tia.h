/* The TIA (video, collisions, input ports, audio) of the Atari 2600, as plain data.
 *
 * Timing follows Stella 3.9.3, which our frame counts, RAM and pictures are compared against: the TIA is brought up
 * to date lazily, to the colour clock of the CPU access that touches it (3 colour clocks per CPU cycle), rendering
 * whole runs of pixels at once. Clocks are relative to the frame's cycle counter (x3); line 0 of a frame starts at
 * `frame_start` (<= 0, the frame may begin mid-line). Object positions, HMOVE motion and the late-HMOVE quirks use
 * Stella's model of them (see tia_regs.c). */
#ifndef RG_SRC_CORES_ATARI2600_TIA_H
#define RG_SRC_CORES_ATARI2600_TIA_H

#include <stdint.h>

/* Objects, in the order of the coverage bitmaps and the enable bits. */
enum { RG__TIA_P0, RG__TIA_M0, RG__TIA_P1, RG__TIA_M1, RG__TIA_BL, RG__TIA_PF, RG__TIA_NOBJ };

#define RG__TIA_NONE INT32_MAX /* no HMOVE in progress */
#define RG__TIA_LINE 228       /* colour clocks per line */
#define RG__TIA_HBLANK 68

/* One audio channel (the divider and the polynomial counters; see tia_audio.c). */
typedef struct rg__tia_voice {
    uint8_t audc, audf, audv;
    uint8_t div;      /* frequency divider count */
    uint8_t div3;     /* divide-by-3 prescaler of modes 12-15 */
    uint8_t out;      /* output bit */
    uint8_t p4, p5;   /* 4- and 5-bit shift registers */
    uint16_t p9;      /* 9-bit shift register */
    uint8_t pad[2];
} rg__tia_voice;

typedef struct rg__a26_tia {
    /* clocks (colour clocks, frame relative) */
    int32_t frame_start;      /* start of line 0 */
    int32_t last_update;      /* rendered up to here */
    int32_t line;             /* the frame line of last_update */
    int32_t line_clock;       /* the clock that line starts at */
    int32_t vsync_finish;     /* VSYNC must stay on until here for the frame to end */
    int32_t hmove_pos;        /* hpos (pixel, -68..159) of the HMOVE acting on this line, or RG__TIA_NONE */
    int32_t prev_hmove_pos;   /* a late HMOVE of the previous line whose clocks still run, or RG__TIA_NONE */
    int32_t audio_clock;      /* clock of the next audio sample */
    uint32_t lines_last;      /* line count of the last frame (Stella's scanline count) */
    uint32_t dump_released;   /* CPU cycle VBLANK bit 7 last let the paddle capacitors charge (frame relative) */
    uint32_t frames, pal_frames; /* frames ended, and those with PAL length (>= 287 lines) */

    /* registers */
    uint8_t vsync, vblank, ctrlpf, enabl, denabl, vdelbl;
    uint8_t nusiz[2], refp[2], grp[2], dgrp[2], enam[2], vdelp[2], resmp[2], suppress[2];
    uint8_t colu[4];          /* P0, P1, PF, BK with bit 0 cleared */
    uint8_t pf[3];
    uint8_t hm[5];            /* HMP0 HMM0 HMP1 HMM1 HMBL (high nibble), indexed like the objects */
    int16_t pos[5];           /* positions 0..159, indexed like the objects */
    int8_t motion[5];         /* motion clocks of the HMOVE in progress */
    uint8_t mmr[5];           /* "more motion required": 17 extra clocks per line (Stella's model) */
    uint8_t hmove_blank;      /* blank the first 8 pixels of the line being drawn */
    uint8_t inpt45[2];        /* latched fire buttons (VBLANK bit 6) */
    uint8_t dump;             /* VBLANK bit 7: paddle capacitors grounded */
    uint8_t pf_reflect;       /* the reflection the playfield is drawn with: CTRLPF bit 0 as of the line start,
                               * or of a write before the centre of the line (Stella's rule) */
    uint16_t collisions;      /* bit 2r+1 / 2r: bits 7 / 6 of read register r */

    /* derived from the registers (kept in step by tia_regs.c) */
    uint32_t pf_bits;         /* PF0 4-7, PF1 7-0, PF2 0-7 as bits 0-19 in screen order */
    uint8_t cur_grp[2];       /* the graphics shown: VDEL picked, reflection applied, bit 0 leftmost */
    uint8_t enabled;          /* 1 << object for the objects with something to draw */
    uint8_t dirty;            /* 1 << object for the coverage bitmaps to rebuild */
    uint64_t cover[RG__TIA_NOBJ][3]; /* pixels 0..159 each object covers on the current line */

    rg__tia_voice voice[2];
} rg__a26_tia;

/* The CPU cycle within the line (0..75) of the frame's cycle `cycles`, and the same cycle counted from line 0's
 * start (what the playfield delay takes modulo 4). With the divisions by 3 and 76 written as multiplications: the
 * compiler keeps `div` instructions for divisions by constants in code it estimates cold, and in the threaded CPU
 * loop (256 computed-goto targets) it estimated the inlined WSYNC of every store handler so. */
static inline uint32_t rg__tia_line_cycles(const rg__a26_tia *t, uint32_t cycles)
{
    /* (uint32_t)(-frame_start / 3), C's truncation toward zero, for any int32_t (a state in memory may hold one) */
    int64_t n = -(int64_t)t->frame_start;
    uint64_t q = ((uint64_t)(n < 0 ? -n : n) * 0xAAAAAAABull) >> 33; /* floor(|n| / 3) for |n| < 2^32 */
    return cycles + (uint32_t)(n < 0 ? 0u - q : q);
}

/* A playfield write's delay in colour clocks: by the CPU cycle counted from line 0 modulo 4 (a line is 76 cycles). */
static inline int rg__tia_pf_delay(const rg__a26_tia *t, uint32_t cycles)
{
    static const int8_t k_pf_delay[4] = {4, 5, 2, 3};
    return k_pf_delay[rg__tia_line_cycles(t, cycles) & 3];
}

static inline uint32_t rg__tia_line_phase(const rg__a26_tia *t, uint32_t cycles)
{
    uint32_t x = rg__tia_line_cycles(t, cycles);
    /* x / 76 = (x >> 2) / 19: floor((x >> 2) * ceil(2^35 / 19) / 2^35) is exact for x >> 2 < 2^30 */
    uint32_t q = (uint32_t)(((uint64_t)(x >> 2) * 1808407283u) >> 35);
    return x - q * 76u;
}

#endif
