/* The NES APU (2A03 sound): pulse x2, triangle, noise, DMC, frame counter (owned by apu*.c).
 *
 * Contract with the machine (nes.h):
 * - rg__nes_apu_run(m, cycle) brings the APU to CPU cycle `cycle`: length counters, envelopes, sweeps, the frame
 *   counter and its IRQ (rg__nes_irq_set with RG__NES_IRQ_FRAME), the DMC and its IRQ (RG__NES_IRQ_DMC); samples
 *   into m->abuf only when m->audio is set. It sets m->apu_sync_at to the next CPU cycle at which it may change
 *   something the CPU sees (an IRQ edge, a DMC fetch).
 * - DMC DMA: when the DMC needs a sample byte the APU sets `dmc_fetch` (address in dmc_fetch_addr); the machine
 *   stalls the CPU as the hardware does, reads the byte and calls rg__nes_apu_dmc_fill.
 * - rg__nes_apu_write ($4000-$4013, $4015, $4017) and rg__nes_apu_read_status ($4015) happen at the current CPU
 *   cycle; the machine has run the APU up to it before the call. */
#ifndef RG_SRC_CORES_NES_APU_H
#define RG_SRC_CORES_NES_APU_H

#include <stdint.h>

struct rg__nes_machine;

typedef struct rg__nes_apu {
    uint64_t cycle;           /* the CPU cycle the APU has been run to */
    uint8_t dmc_fetch;        /* the DMC waits for a byte (the machine runs the DMA) */
    uint8_t pad;
    uint16_t dmc_fetch_addr;
    /* the rest is the APU helper's */
    uint8_t reserved[8];
} rg__nes_apu;

void rg__nes_apu_power(rg__nes_apu *a);
void rg__nes_apu_reset(rg__nes_apu *a);
void rg__nes_apu_run(struct rg__nes_machine *m, uint64_t cycle);
void rg__nes_apu_write(struct rg__nes_machine *m, uint16_t addr, uint8_t value);
uint8_t rg__nes_apu_read_status(struct rg__nes_machine *m);
void rg__nes_apu_dmc_fill(struct rg__nes_machine *m, uint8_t value);
const char *rg__nes_apu_check(const rg__nes_apu *a);

#endif
