/* The NES PPU (2C02, NTSC): registers, rendering, timing (owned by ppu*.c).
 *
 * Contract with the machine (nes.h):
 * - rg__nes_ppu_run(m, cycle) brings the PPU to CPU cycle `cycle` (3 dots per cycle), drawing into m->fb only when
 *   m->video is set (sprite-0 hit, overflow, vblank and everything the CPU can see are computed either way). It sets
 *   st.cpu.nmi_pending on the NMI edge, m->frame_done when the frame ends, and m->ppu_sync_at to the next CPU cycle
 *   at which it may change something the CPU or the mapper sees (NMI edge, frame end; while m->ppu_watch is set and
 *   rendering is on, the pattern fetches the mapper watches).
 * - Video memory: pattern tables through m->chr_map / m->chr_writable, nametables through m->nt_map, palette RAM
 *   in the PPU's own state. When m->ppu_watch is set, every pattern-table address the PPU puts on its bus (rendering
 *   fetches, $2007 accesses, the address a $2006 write puts there) is passed to rg__nes_cart_ppu_addr (cart.h) with
 *   the dot it happens at.
 * - rg__nes_ppu_read / rg__nes_ppu_write are register accesses ($2000-$2007, reg = addr & 7) at the current CPU
 *   cycle; the machine has run the PPU up to that cycle before the call (and the PPU recomputes m->ppu_sync_at).
 *
 * Position: the PPU has processed every dot before (line, dot); a register access at the run-to cycle happens at
 * that position. Lines 0-239 are drawn, 241 starts vblank (dot 1), 261 is the pre-render line (its last dot is
 * skipped on odd frames while rendering is on). See docs/nes.md, "PPU". */
#ifndef RG_SRC_CORES_NES_PPU_H
#define RG_SRC_CORES_NES_PPU_H

#include <stdint.h>

struct rg__nes_machine;

#define RG__NES_PPU_LINES 262
#define RG__NES_PPU_DOTS 341
#define RG__NES_PPU_VBL_LINE 241
#define RG__NES_PPU_PRE_LINE 261
/* The dot of the pre-render line whose processing decides the odd-frame skip (10-even_odd_timing). */
#define RG__NES_PPU_SKIP_DOT 338
/* Frames an I/O latch bit holds a 1 without being refreshed (about 600 ms at 60.1 frames/s). */
#define RG__NES_PPU_DECAY_FRAMES 36u

typedef struct rg__nes_ppu {
    uint64_t cycle;           /* the CPU cycle the PPU has been run to */
    uint8_t oam[256];
    uint8_t palette[32];      /* as stored: $3F10/14/18/1C write and read entries 0/4/8/C */

    uint64_t dots;            /* dots processed since power-on (the clock the mapper's A12 filter sees) */
    uint64_t bg_shift;        /* background pixels as nibbles (palette << 2 | pattern), leftmost in bits 63-60 */
    uint32_t frames;          /* frames started since power-on (the decay clock of the I/O latch) */
    uint32_t latch_frame[8];  /* frame each I/O latch bit was last refreshed */
    uint16_t line;            /* 0-261 */
    uint16_t dot;             /* 0-340: the next dot to process */
    uint16_t v, t;            /* loopy registers (15 bits) */
    uint16_t ovf_dot;         /* dot of this line at which the overflow flag is set (when ovf_pending) */
    uint8_t x;                /* fine X scroll (0-7) */
    uint8_t w;                /* the $2005/$2006 write toggle */
    uint8_t ctrl, mask, status;
    uint8_t oam_addr;
    uint8_t io_latch;         /* the PPU's data bus latch (open bus of its registers) */
    uint8_t read_buf;         /* $2007 read buffer */
    uint8_t odd;              /* odd frame */
    uint8_t vbl_suppress;     /* $2002 was read just before the flag was due: not set this frame */
    uint8_t nt_latch, at_latch, lo_latch, hi_latch; /* the tile being fetched (at_latch: its 2 palette bits) */
    uint8_t sec_count;        /* sprites found for the next line (0-8) */
    uint8_t spr0_next;        /* sprite 0 is among them */
    uint8_t spr0_line;        /* sprite 0 is on the line being drawn (spr_line bit 5) */
    uint8_t ovf_pending;      /* the overflow flag gets set at ovf_dot of this line */
    uint8_t spr_line_used;    /* spr_line holds a sprite pixel */
    uint8_t nmi_out;          /* the NMI output (vblank flag and PPUCTRL bit 7) as the CPU last saw it */
    uint8_t skip;             /* odd frame with rendering on as the pre-render line's skip point passed */
    uint8_t spr0_x;           /* X of sprite 0 on the line being drawn (when spr0_line) */
    uint8_t sec_oam[32];      /* secondary OAM: the next line's sprites ($FF past sec_count) */
    /* The sprites of the line being drawn, by X: 0 none, else pattern (bits 0-1, nonzero) | palette << 2 |
     * 0x10 behind the background | 0x20 sprite 0. Rebuilt during dots 257-320 of the line before. */
    uint8_t spr_line[256];
} rg__nes_ppu;

void rg__nes_ppu_power(rg__nes_ppu *p);
void rg__nes_ppu_reset(rg__nes_ppu *p);
void rg__nes_ppu_run(struct rg__nes_machine *m, uint64_t cycle);
uint8_t rg__nes_ppu_read(struct rg__nes_machine *m, unsigned reg);
void rg__nes_ppu_write(struct rg__nes_machine *m, unsigned reg, uint8_t value);
/* NULL when valid, else a short static description of the first bad field. */
const char *rg__nes_ppu_check(const rg__nes_ppu *p);
/* The same, plus the PPU's clock against the CPU's cycle count `cycles` of the same state: never ahead, and never
 * more than RG__NES_PPU_LAG_MAX cycles behind (the machine brings the PPU up at the end of every run; a state with
 * the PPU far behind would make the next run process that many dots). */
const char *rg__nes_ppu_check_at(const rg__nes_ppu *p, uint64_t cycles);
#define RG__NES_PPU_LAG_MAX 200000u
/* Recomputes m->ppu_sync_at from the PPU's position (after a state load, or a change of m->ppu_watch). */
void rg__nes_ppu_sync(struct rg__nes_machine *m);
/* Sets m->ppu_quiet_at (and m->ppu_quiet_ok): the first CPU cycle at which a $2002 read may need the PPU run to
 * the CPU's cycle first; before it, rg__nes_ppu_read(m, 2) at the PPU's position does exactly the same. */
void rg__nes_ppu_quiet(struct rg__nes_machine *m);

/* --- inside the PPU (ppu.c <-> ppu_render.c) */
/* Processes dots [from, to) of a line (0-239 or 261) with rendering on. */
void rg__nes_ppu_render(struct rg__nes_machine *m, unsigned line, unsigned from, unsigned to);
/* Draws dots [from, to) of a visible line with rendering off (the backdrop, or the palette entry v points at). */
void rg__nes_ppu_blank(struct rg__nes_machine *m, unsigned line, unsigned from, unsigned to);

#endif
