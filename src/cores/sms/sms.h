/* The Sega Master System / Game Gear machine: state, VDP, PSG, bus, frame loop (internal API of src/cores/sms).
 *
 * The whole emulated machine is one plain struct, rg__sms_state (no pointers): a snapshot is a copy of it. The
 * wrapper rg__sms_machine adds what is not state: the cartridge ROM, the mapper kind (from the ROM), the
 * framebuffer, the inputs of the frame and the audio buffer.
 *
 * Timing (NTSC): 228 Z80 T-states per line, 262 lines per frame (59736 T-states). The frame loop runs the Z80 one
 * line at a time; at the end of each line the VDP does the line's work (draws it when the frame is observed,
 * evaluates sprites always, counts the line interrupt, raises the frame interrupt after line 191) and the PSG is
 * brought up to date when audio is observed. */
#ifndef RG_SRC_CORES_SMS_SMS_H
#define RG_SRC_CORES_SMS_SMS_H

#include <stddef.h>
#include <stdint.h>

#include "cpu/z80/z80.h"

#define RG__SMS_WIDTH 256
#define RG__SMS_HEIGHT 192
#define RG__SMS_LINES 262
/* a frame runs from the start of line 192 (the frame interrupt) to the end of line 191 */
#define RG__SMS_FRAME_LINE 192
#define RG__SMS_LINE_T 228
#define RG__SMS_FRAME_T (RG__SMS_LINES * RG__SMS_LINE_T)
#define RG__SMS_CLOCK 3579545.0
#define RG__SMS_RATE 44100
/* Game Gear viewport inside the 256x192 picture */
#define RG__GG_X 48
#define RG__GG_Y 24
#define RG__GG_W 160
#define RG__GG_H 144

/* NONE: a cartridge of up to 48 KiB without a mapper ($0000-$BFFF the ROM, bytes past its end read 0) */
enum { RG__SMS_MAPPER_SEGA = 0, RG__SMS_MAPPER_CODEMASTERS = 1, RG__SMS_MAPPER_NONE = 2 };

typedef struct rg__sms_sprite {
    uint8_t row;           /* the sprite's pattern row on the line */
    uint8_t x;
    uint8_t pat;
    uint8_t col;           /* TMS modes: the colour (bits 0-3) and the early clock bit (7) */
} rg__sms_sprite;

typedef struct rg__sms_vdp {
    uint8_t vram[0x4000];
    uint8_t cram[64];      /* SMS: 32 bytes (--BBGGRR); GG: 32 little-endian words (----BBBBGGGGRRRR) */
    uint8_t reg[16];
    uint16_t addr;         /* 14-bit address register */
    uint8_t code;          /* 0 VRAM read, 1 VRAM write, 2 register write, 3 CRAM write */
    uint8_t latch;         /* 1: the first control byte was written */
    uint8_t latch_byte;
    uint8_t buffer;        /* read-ahead buffer */
    uint8_t status;        /* bit 7 frame interrupt, 6 sprite overflow, 5 collision */
    uint8_t line_irq;      /* line interrupt pending */
    uint8_t line_counter;
    uint8_t vscroll;       /* register 9 as latched at the start of line 0 */
    uint8_t cram_latch;    /* GG: the even byte of a CRAM word */
    uint8_t irq;           /* the INT output */
    uint8_t spr_ovr;       /* $40: the sprites listed for the next line overflowed (latched into status as it is
                            * drawn) */
    uint8_t spr_count;     /* sprites listed for the next line */
    rg__sms_sprite spr[8];
    uint16_t spr_col;      /* where the last collision happened: line << 8 | (dot + 13) / 2 */
    uint16_t hc_latch;     /* $100 | the H counter latched when a TH line rose (the counter then reads it) */
    uint16_t line;         /* the line now running (0-261); a port access past its end may move it on */
    uint8_t spr_num;       /* TMS modes: status bits 0-4 (the sprite entry the last listing stopped at) */
    uint8_t pad2_;
} rg__sms_vdp;

typedef struct rg__sms_psg {
    uint16_t tone[3];      /* 10-bit periods */
    uint16_t noise;        /* noise control (3 bits) */
    uint8_t vol[4];        /* 4-bit attenuations */
    uint16_t counter[4];
    uint16_t lfsr;
    uint8_t out[4];        /* each channel's flip-flop */
    uint8_t latch;         /* the register the last latch byte named (0-7) */
    uint8_t stereo;        /* GG port $06 */
    uint8_t pad_[2];
    uint32_t tick_rem;     /* T-states not yet making a PSG tick (16 T-states each) */
    uint32_t sample_acc;   /* T-states x 44100 towards the next sample (one per 3579545) */
    uint64_t t;            /* the T-state the PSG has been run to */
} rg__sms_psg;

typedef struct rg__sms_state {
    rg_z80 cpu;
    uint8_t pad0_[2];
    uint64_t cycles;       /* T-states since power-on */
    uint8_t ram[0x10000];  /* the Z80 sees the first 8 KiB (mirrored); the whole 64 KiB is the system RAM block, as
                            * Genesis Plus GX exposes it (its upper 56 KiB stay 0 unless written from outside) */
    uint8_t cart_ram[0x8000];
    uint8_t bank[3];       /* ROM pages in the three 16 KiB slots */
    uint8_t mapper_ctl;    /* Sega $FFFC */
    uint8_t mem_ctl;       /* port $3E */
    uint8_t io_ctl;        /* port $3F */
    uint8_t pause_prev;    /* the pause button in the frame before (NMI on the press) */
    uint8_t gg_reg[7];     /* GG ports $00-$06 as written */
    uint8_t cart_ram_used; /* the cartridge RAM was mapped once (it is then part of the memory map) */
    uint8_t pad1_[3];
    uint32_t frame;        /* frames completed */
    rg__sms_vdp vdp;
    rg__sms_psg psg;
} rg__sms_state;

typedef struct rg__sms_machine {
    rg__sms_state st;

    const uint8_t *rom;    /* whole 16 KiB pages */
    size_t rom_size;
    unsigned pages;        /* rom_size / 16 KiB */
    uint8_t gg;            /* Game Gear */
    uint8_t mapper;        /* RG__SMS_MAPPER_* */
    /* The Z80's memory map in 1 KiB pages, derived from the state (rebuilt as each frame starts and on mapper
     * writes; not state): rd for reads, wr for plain RAM writes (NULL: the write goes the slow way, through the
     * mapper registers, cartridge RAM or a ROM). */
    const uint8_t *rd[64];
    uint8_t *wr[64];

    uint64_t line_end;     /* the T-state at which the running line ends */
    uint64_t stop_at;      /* the Z80 runs until this T-state (the line's end, or one instruction) */
    uint16_t *draw;        /* fb while drawing the frame, else NULL */
    uint16_t *fb;          /* 256x192 RGB565 (the GG draws only its 160x144 window) */
    uint8_t video;
    uint8_t audio;
    uint8_t buttons[2];    /* bit 0 up, 1 down, 2 left, 3 right, 4 button 1, 5 button 2 */
    uint8_t start;         /* SMS pause / GG start */
    int16_t *abuf;
    size_t alen, acap;
    int aerr;
} rg__sms_machine;

/* sms_machine.c */
void rg__sms_power_on(rg__sms_machine *m);
void rg__sms_run_frame(rg__sms_machine *m);
/* The mapper of a ROM: Codemasters when its header checksum pair at $7FE6/$7FE8 adds up to $10000. */
unsigned rg__sms_detect_mapper(const uint8_t *rom, size_t size);
/* Field-by-field check of a state from outside; RG_ESTATE naming the field. */
int rg__sms_state_check(const rg__sms_state *s, const rg__sms_machine *m);

/* vdp.c. `late`: the access ends past the running line (it sees the next line); `c`: master clocks (15 per T-state)
 * since the start of the frame; fb: the frame being drawn or NULL. */
void rg__sms_vdp_power_on(rg__sms_vdp *v, int gg);
uint8_t rg__sms_vdp_read_data(rg__sms_vdp *v);
uint8_t rg__sms_vdp_read_status(rg__sms_vdp *v, unsigned c, int late, uint16_t *fb, int gg);
void rg__sms_vdp_write_data(rg__sms_vdp *v, uint8_t val, int late, uint16_t *fb, int gg);
/* c here: master clocks since the running line started */
void rg__sms_vdp_write_ctrl(rg__sms_vdp *v, uint8_t val, unsigned c, uint16_t *fb, int gg);
uint8_t rg__sms_vdp_vcounter(const rg__sms_vdp *v, int late);
uint8_t rg__sms_vdp_hcounter(unsigned c);
/* Line y (0-191) as it starts: drawn into fb when not NULL; sprite flags always; the next line's sprites listed. */
void rg__sms_vdp_render_line(rg__sms_vdp *v, unsigned y, uint16_t *fb, int gg);
/* Lists line 0's sprites (as line 261 starts). */
void rg__sms_vdp_parse_first(rg__sms_vdp *v);
/* An access past the end of the running line: the next line, when active, is drawn now. */
void rg__sms_vdp_catch_up(rg__sms_vdp *v, uint16_t *fb, int gg);

/* psg.c */
void rg__sms_psg_power_on(rg__sms_psg *p);
void rg__sms_psg_write(rg__sms_psg *p, uint8_t val);
/* Runs the PSG to T-state t, appending samples to m->abuf when audio is observed. */
void rg__sms_psg_run(rg__sms_machine *m, uint64_t t);

#endif
