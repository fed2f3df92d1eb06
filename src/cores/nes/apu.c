/* Placeholder APU (the apu helper replaces this file): keeps the clock, no sound, no IRQ. */
#include "cores/nes/nes.h"

#include <string.h>

void rg__nes_apu_power(rg__nes_apu *a)
{
    memset(a, 0, sizeof *a);
}

void rg__nes_apu_reset(rg__nes_apu *a)
{
    a->dmc_fetch = 0;
}

void rg__nes_apu_run(struct rg__nes_machine *m, uint64_t cycle)
{
    m->st.apu.cycle = cycle;
    m->apu_sync_at = UINT64_MAX;
}

void rg__nes_apu_write(struct rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    (void)m;
    (void)addr;
    (void)value;
}

uint8_t rg__nes_apu_read_status(struct rg__nes_machine *m)
{
    (void)m;
    return 0;
}

void rg__nes_apu_dmc_fill(struct rg__nes_machine *m, uint8_t value)
{
    (void)value;
    m->st.apu.dmc_fetch = 0;
}

const char *rg__nes_apu_check(const rg__nes_apu *a)
{
    return a->dmc_fetch > 1 ? "apu dmc_fetch above 1" : NULL;
}
