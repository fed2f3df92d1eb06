/* The Sega Genesis / Mega Drive machine: state, VDP, bus, frame loop (internal API of src/cores/genesis).
 *
 * The whole emulated machine is one plain struct, rg__gen_state (no pointers): a snapshot is a copy of it. The
 * wrapper rg__gen_machine adds what is not state: the cartridge ROM, the framebuffer and the inputs of the frame.
 *
 * Timing (NTSC): 3420 master clocks per line (the 68000 runs at master / 7), 262 lines per frame. A frame starts
 * with the vertical blank (line 224, or 240 in V30, 192 in mode 4) as Genesis Plus GX's does, raises the V
 * interrupt 788 master clocks into it, and ends with the active lines, each drawn at its start when the frame is
 * observed. The frame loop runs the 68000 one line at a time. docs/genesis.md has the details and what is not
 * emulated (DMA takes no time). */
#ifndef RG_SRC_CORES_GENESIS_GENESIS_H
#define RG_SRC_CORES_GENESIS_GENESIS_H

#include <stddef.h>
#include <stdint.h>

#include "cpu/m68k/m68k.h"
#include "cpu/z80/z80.h"
#include "cores/genesis/genesis_fm.h"
#include "cores/genesis/genesis_cart.h"

#define RG__GEN_WIDTH 320
#define RG__GEN_HEIGHT 224
#define RG__GEN_MAX_HEIGHT 240 /* V30 (register 1 bit 3): 240 lines */
#define RG__GEN_LINES 262        /* NTSC; PAL 313 (rg__gen_lines) */
#define RG__GEN_LINES_PAL 313
#define RG__GEN_LINE_MCLK 3420u
#define RG__GEN_FRAME_MCLK (RG__GEN_LINES * RG__GEN_LINE_MCLK)
#define RG__GEN_MCLK 53693175.0
#define RG__GEN_MCLK_PAL 53203424.0
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
    uint8_t odd;            /* status bit 4: the interlace field (toggled at each interlaced frame's start) */
    uint8_t vflag;          /* status bit 7: V interrupt happened (cleared by the acknowledge) */
    uint16_t line;          /* the line now running (0-261) */
    uint16_t view_w;        /* the picture's width (256/320) and height (192/224/240) as Genesis Plus GX reports */
    uint16_t view_h;        /* them; the frame starts at line view_h, the first line of the vertical blank */
    uint8_t view_changed;   /* 1: a mode change takes effect at the next frame's start */
    uint8_t vint_skip;      /* 1: no V interrupt in this frame (the first after power-on) */
    uint8_t hv_latched;     /* 1: the HV counter reads hv_latch (power-on until mode 5; register 0 bit 1) */
    union {                 /* (pad_: its name before it was used) */
        uint8_t pad_;
        uint8_t lflags;     /* RG__GEN_LF_*: what the picture carries from line to line and frame to frame */
    };
    uint16_t hv_latch;
    uint8_t fifo_cnt;       /* the write FIFO as Genesis Plus GX counts it: words waiting (0-4) during the picture, */
    uint8_t fifo_byte;      /* 1 when each takes two access slots (VRAM), */
    uint16_t pad3_;
    uint32_t fifo_slots;    /* access slots used since the frame's start, */
    uint32_t fifo_next;     /* master clock (since the frame's start) of the next slot */
    uint16_t fifo[4];       /* the write FIFO's entries: the last four words written (data port, 68000 DMA) */
    uint8_t fifo_idx;       /* the entry the next word goes to (0-3): the oldest, whose bits a CRAM/VSRAM read or */
    uint8_t pad4_[3];       /* a CRAM/VSRAM fill takes */
    uint8_t sat[0x400];     /* the VDP's own copy of the sprite table (as Genesis Plus GX keeps one): VRAM writes into
                             * the table's place (register 5) also go here at the address's low 10 bits (9 in H32);
                             * sprite y, size and link are read from it, x and the attribute word from VRAM */
} rg__gen_vdp;

/* rg__gen_vdp.lflags (genesis_render.c): a line that reached the sprite dot limit makes a sprite at x = 0 mask the
 * next line's later sprites from its first one on; the interlace mode as latched at a frame's start (register 12
 * bit 1; double resolution, bits 1-2 both set, only latched when interlace itself turns on or off, as in GPGX). */
#define RG__GEN_LF_SPRMASK 1u
#define RG__GEN_LF_INTERLACE 2u
#define RG__GEN_LF_IM2 4u

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
    /* the sound side (genesis_sound.c) */
    rg_z80 z80;
    uint64_t z80_cycles;    /* Z80 T-states since power-on (master / 15; 228 per line) */
    uint16_t z80_bank;      /* bank register: 68000 address bits 23-15 of the Z80's $8000-$FFFF window */
    uint8_t z80_int;        /* the Z80's INT line (asserted during line 224) */
    uint8_t ym_addr[2];     /* YM2612 address latches of parts I and II */
    uint8_t ym_mode;        /* register $27: load A/B, enable flag A/B (reset bits act at once) */
    uint8_t ym_status;      /* bit 0 timer A, bit 1 timer B overflowed; never busy (as Genesis Plus GX) */
    uint8_t psg_latch;      /* the PSG's latched register (0-7) */
    uint16_t ym_ta;         /* timer A period value (10 bits, $24-$25) */
    uint8_t ym_tb;          /* timer B period value ($26) */
    uint8_t cpu_moff;       /* the 68000's time is cpu.cycles * 7 + cpu_moff master clocks (0-6): a 68000-to-VDP DMA
                             * freezes it up to a master clock off its own clock's grid, as in Genesis Plus GX */
    uint16_t psg_reg[8];    /* tone/noise periods and volumes, as written (no sound produced) */
    int32_t ym_tac;         /* timer A counter, in YM samples (master / 1008) */
    int32_t ym_tbc;         /* timer B counter, in YM samples (16 per step) */
    uint64_t ym_samples;    /* YM samples run since power-on */
    uint64_t dma_end;       /* master clock until which a VDP fill or copy reads as busy (status bit 1); the
                             * transfer itself is done at once */
    /* the 6-button pads of ports 1 and 2 (Genesis Plus GX's model, as stable-retro runs it) */
    uint64_t pad_latency[2]; /* master clock before which TH, just released to input, still reads low */
    uint8_t pad_th[2];      /* TH as the pad sees it ($40 high, 0 low) */
    uint8_t pad_count[2];   /* 2 per TH high-to-low edge: which group of lines a read returns */
    uint8_t pad_timeout[2]; /* lines since the last edge: after 26 the count restarts */
    uint8_t region;         /* the version register's bits 7-6 from the ROM header as Genesis Plus GX reads it ($80 USA,
                             * $C0 Europe, $00 Japan, $40 Japan PAL); bit 6 set: PAL, 313 lines a frame */
    uint8_t pad4_;
    rg__gen_fm fm;          /* YM2612 registers and synthesis, the PSG's generators (genesis_fm.h; run only while audio
                             * is observed) */
    rg__gen_cart cart;      /* the cartridge: backup RAM, the ROM page or backup RAM each 64 KiB shows (genesis_cart.c) */
} rg__gen_state;

/* Lines a frame (262 NTSC, 313 PAL), master clocks a frame, and the master clock at which the current frame began
 * (the region is fixed at power-on, so every frame so far had this length). */
static inline unsigned rg__gen_lines(const rg__gen_state *s)
{
    return (s->region & 0x40u) ? RG__GEN_LINES_PAL : RG__GEN_LINES;
}
static inline uint64_t rg__gen_frame_mclk(const rg__gen_state *s)
{
    return (uint64_t)rg__gen_lines(s) * RG__GEN_LINE_MCLK;
}
static inline uint64_t rg__gen_frame_base(const rg__gen_state *s)
{
    return (uint64_t)s->frame * rg__gen_frame_mclk(s);
}

/* The renderer's sprite lists per line (genesis_render.c). Not state: it keeps a copy of the VDP's sprite table copy
 * (vdp.sat) and is rebuilt whenever that differs from it. */
typedef struct rg__gen_sprite_cache {
    uint8_t valid, wide;
    uint16_t base;           /* the table's VRAM address */
    uint8_t im2;             /* built with double-resolution y (bits 9-1) */
    uint8_t sat[640];        /* the table's bytes (80 entries of 8) */
    uint8_t count[240];      /* sprites on each line, at most the line's limit + 1 */
    uint8_t list[240][21];   /* their numbers, in link-list order */
    uint8_t pal_valid;       /* the line palettes below match cram, back_idx and pal_mode */
    uint8_t back_idx;        /* register 7's colour when pal was made */
    uint8_t pal_mode;        /* register 0 bit 2 (full colours) when pal was made */
    uint16_t cram[64];       /* CRAM when pal was made */
    uint32_t pal[3][64];     /* XRGB of each colour in shadow, normal and highlight, colour 0 as the backdrop */
    /* the sprites of a line as read from VRAM one line before it (line 0's in the last blank line), by line parity
     * as Genesis Plus GX keeps them: screen x, row in the sprite, size in cells, attribute word */
    struct {
        int16_t sx;
        uint8_t r, hcells, vcells, pad_;
        uint16_t attr;
    } next[2][20];
    uint8_t next_n[2];
} rg__gen_sprite_cache;

#define RG__GEN_QUIRK_REG 127

typedef struct rg__gen_machine {
    rg__gen_state st;
    const uint8_t *rom;     /* ROM bytes padded to rom_size (a power of two, at least 512 KiB mirrored) */
    uint32_t rom_mask;      /* rom_size - 1 */
    uint32_t *fb;           /* 320x240 XRGB8888 */
    unsigned width;         /* the frame's size: vdp.view_w x vdp.view_h */
    unsigned height;
    uint16_t pad[2];        /* libretro joypad bits of ports 1 and 2 */
    int video;              /* draw this frame */
    uint64_t stop_at;       /* 68000 clock the current run ends at */
    uint64_t z80_stop_at;   /* Z80 clock the current Z80 run ends at */
    rg__gen_sprite_cache sprites; /* genesis_render.c's */
    uint64_t insn_mclk;     /* master clock at which the current instruction (or exception) started: Genesis Plus
                             * GX's time for the VDP, YM2612 and Z80 accesses the instruction makes */
    uint64_t stop_mclk;     /* master clock the current 68000 run ends at (stop_at is its 68000 clock) */
    uint64_t freeze_add;    /* a 68000-to-VDP DMA started by this instruction: master clocks the 68000 waits after */
    uint64_t freeze_to;     /* it (the DMA ends in the same line or blank), or the master clock it waits until */
    int8_t quirk[0x10000];  /* 68000 clocks Genesis Plus GX 1.7.4 counts more per opcode (genesis_machine.c, made at
                             * power-on), RG__GEN_QUIRK_REG where the registers decide */
    uint8_t tas_keep;       /* a TAS to work RAM ran: its byte (tas_byte at ram[tas_at]) is put back (GPGX never */
    uint8_t tas_byte;       /* writes TAS's result) */
    uint16_t tas_at;
    uint8_t stopped_at_start; /* the 68000 was in STOP when the current run began (a STOP of an earlier run) */
    uint8_t stop_irq;       /* a STOP of this run let a pending interrupt in at once: the handler starts at the run's
                             * end (Genesis Plus GX 1.7.4, freeze_to is that end) */
    int pad6;               /* the pads are 6-button ones: the ROM header's I/O field ($190-$19D) names '6', as
                             * Genesis Plus GX picks them for a RETRO_DEVICE_JOYPAD port; else 3-button */
    unsigned ipl_delay;     /* an interrupt enabled while pending reaches the 68000 after one more instruction: 2
                             * when the enabling write's instruction is running, 1 during the next */
    int audio;              /* audio is observed this frame: the YM2612 and PSG are synthesised into abuf */
    unsigned alen;          /* stereo frames in abuf (44,100 Hz) */
    int16_t abuf[2 * RG__GEN_ABUF_FRAMES];
    /* the cartridge (genesis_cart.c, from the ROM's header) */
    uint32_t rom_fast;      /* 68000 reads below this address read rom[] straight: every slot below shows its
                             * power-on ROM page (rg__gen_cart_refresh) */
    uint8_t sram_on;        /* the cartridge has backup RAM, */
    uint8_t sram_slot;      /* in this 64 KiB slot at power-on */
    uint8_t bankshift;      /* a bank-switched cartridge, 1 SSF2, 2 extended SSF: its own register decoding, and the
                             * reset button maps the power-on pages again */
    rg__gen_eeprom_board eeprom; /* a serial EEPROM cartridge's board (genesis_eeprom.c), kind 0 without */
} rg__gen_machine;

/* Power-on: zeroed state, Z80 in reset, the 68000's reset from the ROM's vectors. */
void rg__gen_power_on(rg__gen_machine *m);
/* The reset button: the 68000 (and the VDP's pending command) only. */
void rg__gen_reset_soft(rg__gen_machine *m);
/* Runs one frame (262 lines, drawn into m->fb when m->video). */
/* The picture's size the VDP's registers give (m->width, m->height). */
void rg__gen_frame_size(rg__gen_machine *m);
void rg__gen_run_frame(rg__gen_machine *m);
/* Checks a state taken from outside, field by field. RG_OK or RG_ESTATE naming the field. */
int rg__gen_state_check(const rg__gen_state *s);

/* 68000 bus (genesis_machine.c), used by the VDP's DMA and the Z80's bank window too. sel: 2 high byte, 1 low
 * byte, 3 the word. A read returns the word at the even address below addr; Z80 RAM alone answers an odd addr (the
 * 68000's byte read there) with its odd byte, on both halves. */
uint16_t rg__gen_read16(rg__gen_machine *m, uint32_t addr);
void rg__gen_write16(rg__gen_machine *m, uint32_t addr, uint16_t v, int sel);

/* Sound side (genesis_sound.c): the Z80 with its bus (8 KiB RAM, YM2612, bank register, VDP/PSG, the 68000 window),
 * the YM2612's timers and status, the PSG's registers. */
/* Runs the Z80 (when out of reset and not holding its bus for the 68000) up to master clock mclk; otherwise lets the
 * time pass. */
void rg__gen_z80_run_to(rg__gen_machine *m, uint64_t mclk);
/* Z80 reset (line asserted): the CPU's reset and the YM2612's (its timers and flags). */
void rg__gen_z80_reset(rg__gen_machine *m);
/* YM2612 port access at master clock mclk (port 0-3: address I, data I, address II, data II). */
uint8_t rg__gen_ym_read(rg__gen_machine *m, uint64_t mclk);
void rg__gen_ym_write(rg__gen_machine *m, uint64_t mclk, unsigned port, uint8_t v);
/* A byte written to the PSG at master clock mclk. */
void rg__gen_psg_write(rg__gen_machine *m, uint64_t mclk, uint8_t v);
/* The PSG at power-on: all four channels off. */
void rg__gen_psg_power_on(rg__gen_state *s);
/* Audio (m->audio): a frame's start (abuf emptied; time not synthesised since the last observed frame skipped), and
 * the YM2612 and PSG synthesised up to master clock mclk into abuf. */
void rg__gen_audio_begin(rg__gen_machine *m);
void rg__gen_audio_run_to(rg__gen_machine *m, uint64_t mclk);
/* Checks the sound side of a state taken from outside; NULL or the bad field. */
const char *rg__gen_sound_check(const rg__gen_state *s);

/* VDP (genesis_vdp.c). */
void rg__gen_vdp_ctrl_write(rg__gen_machine *m, uint16_t v);
void rg__gen_vdp_data_write(rg__gen_machine *m, uint16_t v);
uint16_t rg__gen_vdp_data_read(rg__gen_machine *m);
uint16_t rg__gen_vdp_status(rg__gen_machine *m);
uint16_t rg__gen_vdp_hv(rg__gen_machine *m);
/* The 68000 interrupt level the VDP asks for now (6, 4 or 0). */
unsigned rg__gen_vdp_ipl(const rg__gen_vdp *v);

/* Once a line: the 6-button pads' timeout (genesis_machine.c). */
void rg__gen_pads_line(rg__gen_state *s);
/* The picture's size and first line the registers give (at a frame's start, or a mode change in the blank). */
void rg__gen_vdp_view(rg__gen_vdp *v);

/* Renderer (genesis_render.c): draws line y (0-223, 0-239 in V30) into m->fb. */
void rg__gen_render_line(rg__gen_machine *m, unsigned y);
/* What a line does to the state without drawing it (a frame nobody observes): the sprite overflow and collision
 * flags, exactly as rg__gen_render_line sets them. */
void rg__gen_sprite_line(rg__gen_machine *m, unsigned y);
/* At a frame's start: latches the interlace mode when interlace turned on or off (register 12 bit 1; double
 * resolution then from bits 1-2) and toggles the field (status bit 4) while interlaced, as Genesis Plus GX does. */
void rg__gen_field_start(rg__gen_vdp *v);
/* Reads the sprites of line y from VRAM into m->sprites.next (Genesis Plus GX does it during line y - 1, and for
 * line 0 in the blank's last line), setting the overflow flag. */
void rg__gen_sprite_parse(rg__gen_machine *m, unsigned y);

#endif
