/* Genesis Plus GX save states (the start states of stable-retro's Genesis, Sms and GameGear integrations), read
 * into plain fields for our SMS/GG and Genesis cores to convert. The layout (docs/sms.md and docs/genesis.md, "State
 * import") is that of the genesis_plus_gx libretro core in stable-retro's wheel: retro_serialize's output, a fixed
 * 1,036,288 bytes beginning "GENPLUS-GX 1.7.5", the blocks written one after the other in the machine's byte order
 * (little-endian), the rest zero. Nothing here trusts a size: every block is bounds-checked against the buffer and
 * every field the cores use is range-checked; a refusal is RG_ESTATE naming the block or field. */
#ifndef RG_SRC_CORES_GPGX_STATE_GPGX_STATE_H
#define RG_SRC_CORES_GPGX_STATE_GPGX_STATE_H

#include <stddef.h>
#include <stdint.h>

#define RG__GPGX_MAGIC "GENPLUS-GX "
#define RG__GPGX_VERSION "1.7.5"

/* The Z80 register block (its first 68 bytes; the two host pointers after it are skipped). */
typedef struct rg__gpgx_z80 {
    uint16_t pc, sp, af, bc, de, hl, ix, iy, wz, af2, bc2, de2, hl2;
    uint8_t r, r2, iff1, iff2, halt, im, i;
    uint8_t nmi_state, nmi_pending, irq_state, after_ei;
    uint32_t cycles; /* master clocks (15 per Z80 T-state) since the frame started */
} rg__gpgx_z80;

typedef struct rg__gpgx_vdp {
    const uint8_t *sat;   /* 1 KiB: the VDP's internal copy of the sprite table */
    const uint8_t *vram;  /* 64 KiB */
    const uint8_t *cram;  /* 128 bytes: 64 little-endian words (SMS: 6-bit colours; GG: 12-bit; MD: 9-bit BGR) */
    const uint8_t *vsram; /* 128 bytes: little-endian words */
    uint8_t reg[32];
    uint16_t addr, addr_latch;
    uint8_t code, pending;
    uint16_t status;
    int32_t dmafill, fifo_idx;
    uint16_t fifo[4];     /* SMS/GG: fifo[0] is the read-ahead buffer */
    uint8_t h_counter;    /* the line interrupt counter */
    uint8_t hint_pending; /* $10 when pending */
    uint8_t vint_pending; /* $20 when pending */
    uint32_t dma_length;
    uint8_t dma_type;
    uint16_t dma_src;
    int32_t cached_write; /* MD: the command's second word pending; GG: the even CRAM byte */
} rg__gpgx_vdp;

typedef struct rg__gpgx_psg {
    int32_t clocks, latch, noise_shift;
    int32_t regs[8];      /* tone 0, volume 0, tone 1, volume 1, tone 2, volume 2, noise, volume 3, as the chip's
                           * registers: periods, attenuations 0-15 (GPGX saves a level), noise control 0-7 */
    int32_t freq_inc[4], freq_counter[4], polarity[4];
} rg__gpgx_psg;

typedef struct rg__gpgx_m68k {
    uint32_t d[8], a[8];  /* a[7]: the active stack pointer */
    uint32_t pc;
    uint16_t sr;
    uint32_t usp, isp;
    uint32_t cycles;      /* master clocks (7 per 68000 clock) since the frame started */
    uint32_t int_level, stopped;
} rg__gpgx_m68k;

typedef struct rg__gpgx_state {
    int md;                     /* 1: a Mega Drive state, 0: SMS / GG */
    size_t size;                /* bytes the blocks take (the rest of the buffer is padding) */
    const uint8_t *work_ram;    /* SMS/GG 8 KiB; MD 64 KiB as 16-bit little-endian words */
    const uint8_t *zram;        /* MD: the Z80's 8 KiB */
    uint8_t zstate;             /* MD: bit 0 Z80 reset released, bit 1 bus requested */
    uint32_t zbank;             /* MD: the Z80's 68000 bank register (address bits 23-15) */
    uint8_t io_reg[16];
    rg__gpgx_vdp vdp;
    const uint8_t *fm;          /* MD: the YM2612 block (not read); SMS: the YM2413 block */
    size_t fm_size;
    rg__gpgx_psg psg;
    uint32_t fm_cycles_start;
    rg__gpgx_m68k m68k;         /* MD */
    rg__gpgx_z80 z80;
    uint8_t fcr[4];             /* SMS/GG: the mapper registers ($FFFC-$FFFF as the Sega mapper names them) */
    uint8_t map[64];            /* MD: 64 KiB page of cartridge ROM in each 64 KiB slot of $000000-$3FFFFF ($FF SRAM) */
    uint8_t cart_regs[4];       /* MD: cartridge hardware registers */
} rg__gpgx_state;

/* Whether src begins as a Genesis Plus GX state does (any version). */
int rg__gpgx_sniff(const void *src, size_t len);

/* Parses src as a state of the given kind (md 1: Mega Drive, 0: Master System / Game Gear) into out, which points
 * into src. RG_OK, or RG_ESTATE naming what is wrong or missing. */
int rg__gpgx_parse(const void *src, size_t len, int md, rg__gpgx_state *out);

#endif
