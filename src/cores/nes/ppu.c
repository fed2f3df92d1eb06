/* Placeholder PPU (the ppu helper replaces this file): only the vblank flag, NMI and the frame end, no picture. */
#include "cores/nes/nes.h"

#include <string.h>

#define FRAME_DOTS (341u * 262u)
#define VBL_DOT (241u * 341u + 1u)
#define PRE_DOT (261u * 341u + 1u)

void rg__nes_ppu_power(rg__nes_ppu *p)
{
    memset(p, 0, sizeof *p);
}

void rg__nes_ppu_reset(rg__nes_ppu *p)
{
    p->reserved[1] = 0;
}

void rg__nes_ppu_run(struct rg__nes_machine *m, uint64_t cycle)
{
    rg__nes_ppu *p = &m->st.ppu;
    for (uint64_t c = p->cycle + 1; c <= cycle; c++) {
        unsigned d = (unsigned)((c * 3u) % FRAME_DOTS);
        for (unsigned k = 0; k < 3; k++) {
            unsigned e = (d + FRAME_DOTS - k) % FRAME_DOTS;
            if (e == VBL_DOT) {
                p->reserved[0] |= 0x80u;
                m->frame_done = 1;
                if (p->reserved[1] & 0x80u)
                    m->st.cpu.nmi_pending = 1;
            } else if (e == PRE_DOT) {
                p->reserved[0] = 0;
            }
        }
    }
    if (cycle > p->cycle)
        p->cycle = cycle;
    m->ppu_sync_at = p->cycle + 1;
}

uint8_t rg__nes_ppu_read(struct rg__nes_machine *m, unsigned reg)
{
    rg__nes_ppu *p = &m->st.ppu;
    if (reg == 2) {
        uint8_t v = (uint8_t)(p->reserved[0] | (m->st.open_bus & 0x1Fu));
        p->reserved[0] &= 0x7Fu;
        return v;
    }
    return m->st.open_bus;
}

void rg__nes_ppu_write(struct rg__nes_machine *m, unsigned reg, uint8_t value)
{
    rg__nes_ppu *p = &m->st.ppu;
    if (reg == 0) {
        if ((value & 0x80u) && !(p->reserved[1] & 0x80u) && (p->reserved[0] & 0x80u))
            m->st.cpu.nmi_pending = 1;
        p->reserved[1] = value;
    }
}

const char *rg__nes_ppu_check(const rg__nes_ppu *p)
{
    (void)p;
    return NULL;
}
