/* The NES machine: state, bus, frame loop (machine-internal API of src/cores/nes).
 *
 * The whole emulated machine is one plain struct, rg__nes_state (no pointers): a snapshot is a copy of it. The
 * machine wrapper rg__nes_machine adds what is not state: the cartridge's ROM, the windows derived from the mapper's
 * registers (rebuilt by rg__nes_cart_sync after every bank switch and after a state is loaded), the framebuffer, the
 * inputs of the frame and the configuration.
 *
 * Clocks: st.cycles counts CPU cycles since power-on (NTSC: 3 PPU dots per CPU cycle). The CPU bus is the master: the
 * PPU and APU are brought up to the CPU lazily (rg__nes_ppu_run / rg__nes_apu_run) before any access to their
 * registers and whenever st.cycles reaches the next point at which they may change something the CPU sees
 * (m->ppu_sync_at, m->apu_sync_at: set by the PPU and APU themselves; a chip that cannot predict sets it to the next
 * cycle).
 *
 * Interrupts: the PPU raises NMI by setting st.cpu.nmi_pending (an edge); IRQ sources set their bit in st.irq
 * (RG__NES_IRQ_*) through rg__nes_irq_set and the CPU's level line is st.cpu.irq_line = (st.irq != 0).
 * The chip polls its lines before the last cycle of an instruction, our interpreter after it: so the machine shows
 * the CPU a line one cycle late. Running a chip to cycle c (rg__nes_ppu_run, rg__nes_apu_run) processes the cycles
 * before c, so what it raises there dates from cycle c - 1 or earlier and is shown at once: the bus sets
 * st.cpu.irq_line from st.irq after the catch-ups at the start of each cycle. An NMI edge raised by a register write
 * in cycle c (rg__nes_ppu_write) is moved to st.nmi_next and reaches st.cpu.nmi_pending when cycle c + 1 starts.
 * So an edge raised in an instruction's last cycle is taken one instruction later, as on the chip. */
#ifndef RG_SRC_CORES_NES_NES_H
#define RG_SRC_CORES_NES_NES_H

#include <stddef.h>
#include <stdint.h>

#include "cpu/m6502/m6502.h"

#define RG__NES_WIDTH 256
#define RG__NES_HEIGHT 240

/* IRQ sources (bits of rg__nes_state.irq). */
#define RG__NES_IRQ_FRAME  0x01u  /* APU frame counter */
#define RG__NES_IRQ_DMC    0x02u  /* APU DMC */
#define RG__NES_IRQ_MAPPER 0x04u  /* cartridge (MMC3 scanline counter, ...) */

struct rg__nes_machine;

#include "cores/nes/apu.h"
#include "cores/nes/cart.h"
#include "cores/nes/ppu.h"

typedef struct rg__nes_state {
    rg_m6502 cpu;
    uint64_t cycles;        /* CPU cycles since power-on */
    uint8_t ram[0x800];
    uint8_t irq;            /* RG__NES_IRQ_* sources asserting the IRQ line */
    uint8_t open_bus;       /* the last byte on the CPU data bus */
    uint8_t pad_strobe;     /* $4016 bit 0 */
    uint8_t nmi_next;       /* an NMI edge raised in the cycle now running (shown to the CPU next cycle) */
    uint8_t pad_shift[2];   /* controller shift registers ($4016/$4017 reads) */
    uint8_t pad_read[2];    /* bits read since the strobe fell */
    uint16_t dma_page;      /* OAM DMA: page pending ($4014 write), 0x100 = none */
    uint32_t frame;         /* frames completed */
    uint8_t dmc_halt;       /* DMC DMA: the CPU is halted for a fetch (internal to the bus) */
    uint8_t pad_bit[2];     /* the bit each pad's last read returned */
    uint8_t pad_[1];
    uint32_t ppu_data_next; /* the CPU cycle (low 32 bits) after the CPU's last $2007 read: a $2007 read in that
                             * cycle is the second of a double read and is not seen (0: none) */
    uint64_t pad_read_cycle[2]; /* the CPU cycle of the last $4016/$4017 read (reads on consecutive cycles clock
                                 * the pad once: the halted CPU's repeated reads during DMA) */
    rg__nes_ppu ppu;
    rg__nes_apu apu;
    rg__nes_cart cart;      /* mapper registers and the cartridge's RAM (PRG-RAM, CHR-RAM, extra nametables) */
} rg__nes_state;

typedef struct rg__nes_machine {
    rg__nes_state st;

    /* outside the state: the cartridge */
    const uint8_t *prg;            /* PRG-ROM */
    size_t prg_size;
    const uint8_t *chr;            /* CHR-ROM (NULL: the cart has CHR-RAM in st.cart) */
    size_t chr_size;
    rg__nes_cart_info info;        /* header facts: mapper, submapper, mirroring, battery, RAM sizes */
    const struct rg__nes_mapper *mapper; /* the mapper's functions (mapper.h) */

    /* derived from st.cart by rg__nes_cart_sync (never part of the state) */
    const uint8_t *prg_map[4];     /* $8000-$FFFF in 8 KiB windows */
    uint8_t *prg_ram_map;          /* $6000-$7FFF (NULL: open bus) */
    uint8_t prg_ram_writable;
    uint8_t *chr_map[8];           /* PPU $0000-$1FFF in 1 KiB windows (CHR-ROM is cast; writes go only where
                                    * chr_writable has the window's bit) */
    uint8_t chr_writable;          /* bit i: window i is RAM */
    uint8_t *nt_map[4];            /* PPU $2000-$2FFF: the four 1 KiB nametables */
    uint8_t ppu_watch;             /* the mapper watches the PPU's pattern fetches (rg__nes_cart_ppu_addr) */
    uint8_t nt_readonly;           /* bit i: nametable window i is ROM (Namco 163 can map CHR-ROM there) */
    uint8_t cart_clocked;          /* the mapper has a CPU-clocked counter (mapper->cpu_clock) */
    uint8_t ppu_phase;             /* the mapper follows the PPU's fetch phases (MMC5: rg__nes_cart_phase) */
    uint8_t ppu_exattr_hi;         /* MMC5's $5130 bits above ExRAM's 6-bit CHR bank */
    const uint8_t *ppu_exattr;     /* MMC5 ExRAM mode 1: per-tile CHR bank and palette (NULL: off) */

    /* scheduling (not state: recomputed by the chips when they run) */
    uint64_t ppu_sync_at;          /* CPU cycle at which the PPU must next be run */
    uint64_t apu_sync_at;          /* ... the APU (never later than cart_sync_at: the cartridge rides on its checks) */
    uint64_t cart_sync_at;         /* ... the cartridge's CPU-clocked IRQ counter (UINT64_MAX: none ahead) */
    /* A $2002 read before this CPU cycle sees what it would see at the PPU's position (no status change, vblank
     * start or frame start between): the PPU need not be run for it (rg__nes_ppu_quiet_at; valid while
     * ppu_quiet_ok, which every run of the PPU and every register write clears) */
    uint64_t ppu_quiet_at;
    uint8_t ppu_quiet_ok;
    uint8_t frame_done;            /* the PPU reached the frame's end; the run stops at the next instruction */

    /* outputs and inputs of a run */
    uint16_t *fb;                  /* RG__NES_WIDTH x RG__NES_HEIGHT: palette index (6 bits) | emphasis << 6, or
                                    * that value's entry of rgb where rgb is set */
    const uint16_t *rgb;           /* NULL, or 512 output values (the core's RGB565 palette) drawn in place */
    /* caches of the renderer (ppu_render.c), valid while the palette RAM and PPUMASK's colour bits equal col_key:
     * the output value of each palette entry and background nibble (col), of two background pixels by their two
     * nibbles (bg_pair, when bg_pair_ok) */
    uint16_t col[48];
    uint8_t col_key[33];
    uint8_t col_ok;
    uint8_t bg_pair_ok;
    uint16_t bg_pair[256][2];
    uint8_t video;                 /* draw pixels in this run (frames nobody observes are not drawn) */
    uint8_t audio;                 /* produce samples in this run */
    uint8_t buttons[2];            /* joypad bytes: A B Select Start Up Down Left Right, bit 0 = A */
    int16_t *abuf;                 /* mono samples of this run */
    size_t alen, acap;
    int aerr;
    uint64_t cycle_cap;            /* a run ends at this CPU cycle even without a frame end */
    uint64_t idle_cycles;          /* CPU cycles of idle loops counted at once so far (nes_machine.c) */
    uint8_t idle_off;              /* tests: run idle loops cycle by cycle */
} rg__nes_machine;

/* The longest run: a frame is 29780.5 CPU cycles; a run with no frame end (rendering and NMI never reached, a
 * stalled PPU) stops after this many. */
#define RG__NES_RUN_CYCLES_MAX 100000u

static inline void rg__nes_irq_set(rg__nes_state *s, unsigned source, int on)
{
    if (on)
        s->irq = (uint8_t)(s->irq | source);
    else
        s->irq = (uint8_t)(s->irq & ~source);
    /* the CPU's line follows at the next cycle (see above) */
}

/* nes_machine.c */
void rg__nes_power_on(rg__nes_machine *m);
void rg__nes_soft_reset(rg__nes_machine *m);
void rg__nes_run_frame(rg__nes_machine *m);
/* Field-by-field check of a state from outside against the cartridge; RG_ESTATE naming the field. */
int rg__nes_state_check(const rg__nes_state *s, const rg__nes_machine *m);

#endif
