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
 *   fetches, $2007 accesses) is passed to rg__nes_cart_ppu_addr (cart.h) with the dot it happens at.
 * - rg__nes_ppu_read / rg__nes_ppu_write are register accesses ($2000-$2007, reg = addr & 7) at the current CPU
 *   cycle; the machine has run the PPU up to that cycle before the call. */
#ifndef RG_SRC_CORES_NES_PPU_H
#define RG_SRC_CORES_NES_PPU_H

#include <stdint.h>

struct rg__nes_machine;

typedef struct rg__nes_ppu {
    uint64_t cycle;           /* the CPU cycle the PPU has been run to */
    uint8_t oam[256];
    uint8_t palette[32];
    /* the rest is the PPU helper's (registers, loopy v/t/x/w, latches, shifters, scanline, dot, odd frame ...) */
    uint8_t reserved[8];
} rg__nes_ppu;

void rg__nes_ppu_power(rg__nes_ppu *p);
void rg__nes_ppu_reset(rg__nes_ppu *p);
void rg__nes_ppu_run(struct rg__nes_machine *m, uint64_t cycle);
uint8_t rg__nes_ppu_read(struct rg__nes_machine *m, unsigned reg);
void rg__nes_ppu_write(struct rg__nes_machine *m, unsigned reg, uint8_t value);
/* NULL when valid, else a short static description of the first bad field. */
const char *rg__nes_ppu_check(const rg__nes_ppu *p);

#endif
