/* The Sega Genesis / Mega Drive machine: state, VDP, bus, frame loop (internal API of src/cores/genesis).
 *
 * The whole emulated machine is one plain struct, rg__gen_state (no pointers): a snapshot is a copy of it. The
 * wrapper rg__gen_machine adds what is not state: the cartridge ROM, the framebuffer and the inputs of the frame.
 *
 * Timing (NTSC): 3420 master clocks per line (the 68000 runs at master / 7), 262 lines per frame. The frame loop
 * runs the 68000 one line at a time; at the start of each line the VDP counts the H interrupt, raises the V
 * interrupt at line 224 and draws the line (lines 0-223) when the frame is observed. docs/genesis.md has the
 * details and what is not emulated (the Z80 does not run, YM2612 and PSG are silent, DMA takes no time). */
#ifndef RG_SRC_CORES_GENESIS_GENESIS_H
#define RG_SRC_CORES_GENESIS_GENESIS_H

#include <stddef.h>
#include <stdint.h>

#include "cpu/m68k/m68k.h"

#define RG__GEN_WIDTH 320
#define RG__GEN_HEIGHT 224
#define RG__GEN_LINES 262
#define RG__GEN_LINE_MCLK 3420u
#define RG__GEN_FRAME_MCLK (RG__GEN_LINES * RG__GEN_LINE_MCLK)
#define RG__GEN_MCLK 53693175.0
#define RG__GEN_ROM_MAX (4u << 20)

typedef struct rg__gen_vdp {
    uint8_t vram[0x10000];  /* bytes in the 68000's order (big-endian words) */
    uint16_t cram[64];      /* ----BBB-GGG-RRR- */
    uint16_t vsram[40];
    uint8_t reg[24];
    uint16_t addr;          /* address register (16 bits) */
    uint8_t code;           /* CD5-CD0 */
    uint8_t pending;        /* 1: the first word of a command was written */
    uint8_t fill;           /* 1: a DMA fill waits for its data-port write */
    uint8_t vint;           /* V interrupt pending */
    uint8_t hint;           /* H interrupt pending */
    uint8_t hcounter;       /* H interrupt counter */
    uint8_t sprite_ovf;     /* status bit 6 */
    uint8_t sprite_col;     /* status bit 5 */
    uint8_t odd;            /* status bit 4 (interlace field); stays 0 */
    uint8_t vflag;          /* status bit 7: V interrupt happened (cleared by the acknowledge) */
    uint16_t line;          /* the line now running (0-261) */
    uint16_t pad_;
} rg__gen_vdp;

typedef struct rg__gen_state {
    rg_m68k cpu;
    uint8_t ram[0x10000];   /* work RAM $FF0000-$FFFFFF as 16-bit host words: the byte at $FF0000+a is ram[a ^ 1]
                             * (the layout Genesis Plus GX exposes and the systems file's overlay expects) */
    uint8_t zram[0x2000];   /* the Z80's 8 KiB */
    rg__gen_vdp vdp;
    uint8_t io_data[3];     /* data latches of ports 1-3 ($A10003/5/7) */
    uint8_t io_ctrl[3];     /* direction registers ($A10009/B/D): 1 bits are outputs */
    uint8_t z80_busreq;     /* $A11100 bit 0 as written */
    uint8_t z80_reset;      /* 1: the Z80 is held in reset ($A11200 bit 0 written 0) */
    uint32_t frame;         /* frames run */
    uint32_t pad_;
} rg__gen_state;

typedef struct rg__gen_machine {
    rg__gen_state st;
    const uint8_t *rom;     /* ROM bytes padded to rom_size (a power of two, at least 512 KiB mirrored) */
    uint32_t rom_mask;      /* rom_size - 1 */
    uint32_t *fb;           /* 320x224 XRGB8888 */
    unsigned width;         /* 320 (H40) or 256 (H32) as of the frame's last line */
    uint16_t pad[2];        /* libretro joypad bits of ports 1 and 2 */
    int video;              /* draw this frame */
    uint64_t stop_at;       /* 68000 clock the current run ends at */
} rg__gen_machine;

/* Power-on: zeroed state, Z80 in reset, the 68000's reset from the ROM's vectors. */
void rg__gen_power_on(rg__gen_machine *m);
/* The reset button: the 68000 (and the VDP's pending command) only. */
void rg__gen_reset_soft(rg__gen_machine *m);
/* Runs one frame (262 lines, drawn into m->fb when m->video). */
void rg__gen_run_frame(rg__gen_machine *m);
/* Checks a state taken from outside, field by field. RG_OK or RG_ESTATE naming the field. */
int rg__gen_state_check(const rg__gen_state *s);

/* 68000 bus (genesis_machine.c), used by the VDP's DMA too. */
uint16_t rg__gen_read16(rg__gen_machine *m, uint32_t addr);

/* VDP (genesis_vdp.c). */
void rg__gen_vdp_ctrl_write(rg__gen_machine *m, uint16_t v);
void rg__gen_vdp_data_write(rg__gen_machine *m, uint16_t v);
uint16_t rg__gen_vdp_data_read(rg__gen_machine *m);
uint16_t rg__gen_vdp_status(rg__gen_machine *m);
uint16_t rg__gen_vdp_hv(rg__gen_machine *m);
/* The 68000 interrupt level the VDP asks for now (6, 4 or 0). */
unsigned rg__gen_vdp_ipl(const rg__gen_vdp *v);

/* Renderer (genesis_render.c): draws line y (0-223) into m->fb. */
void rg__gen_render_line(rg__gen_machine *m, unsigned y);
/* What a line does to the state without drawing it (a frame nobody observes): the sprite overflow and collision
 * flags, exactly as rg__gen_render_line sets them. */
void rg__gen_sprite_line(rg__gen_machine *m, unsigned y);

#endif
