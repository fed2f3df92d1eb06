/* The Genesis VDP's ports (docs/genesis.md): register writes, the two-word command (address and code), the data
 * port for VRAM / CRAM / VSRAM with auto-increment, DMA (68000 -> VDP, fill, VRAM copy; done at once, taking no
 * time), the status register and the H/V counter. Rendering is genesis_render.c. */
#include "cores/genesis/genesis.h"

/* The 68000 clock at which the current line started, in master clocks. */
static uint64_t line_start_mclk(const rg__gen_machine *m)
{
    return (uint64_t)m->st.frame * RG__GEN_FRAME_MCLK + (uint64_t)m->st.vdp.line * RG__GEN_LINE_MCLK;
}

/* Master clocks into the current line (0..3419). */
static unsigned line_pos(const rg__gen_machine *m)
{
    uint64_t now = m->st.cpu.cycles * 7u, start = line_start_mclk(m);
    if (now <= start)
        return 0;
    uint64_t d = now - start;
    return d >= RG__GEN_LINE_MCLK ? RG__GEN_LINE_MCLK - 1u : (unsigned)d;
}

static int h40(const rg__gen_vdp *v)
{
    return (v->reg[12] & 1u) != 0;
}

unsigned rg__gen_vdp_ipl(const rg__gen_vdp *v)
{
    if (v->vint && (v->reg[1] & 0x20u))
        return 6;
    if (v->hint && (v->reg[0] & 0x10u))
        return 4;
    return 0;
}

static void vram_write_word(rg__gen_vdp *v, uint16_t addr, uint16_t val)
{
    if (addr & 1u) /* an odd address writes the bytes swapped into the even word */
        val = (uint16_t)(val << 8 | val >> 8);
    v->vram[addr & 0xFFFEu] = (uint8_t)(val >> 8);
    v->vram[addr | 1u] = (uint8_t)val;
}

/* One data-port write to the target the code names (VRAM 1, CRAM 3, VSRAM 5; reads and other codes write
 * nothing), then the auto-increment. */
static void port_write(rg__gen_vdp *v, uint16_t val)
{
    switch (v->code & 0x0Fu) {
    case 1:
        vram_write_word(v, v->addr, val);
        break;
    case 3:
        v->cram[(v->addr >> 1) & 0x3Fu] = val & 0x0EEEu;
        break;
    case 5: {
        unsigned i = (v->addr >> 1) & 0x3Fu;
        if (i < 40)
            v->vsram[i] = val & 0x07FFu;
        break;
    }
    default:
        break;
    }
    v->addr = (uint16_t)(v->addr + v->reg[15]);
}

static unsigned dma_length(const rg__gen_vdp *v)
{
    unsigned n = v->reg[19] | (unsigned)v->reg[20] << 8;
    return n ? n : 0x10000u;
}

static void dma_done(rg__gen_vdp *v, unsigned src16)
{
    v->reg[19] = v->reg[20] = 0;
    v->reg[21] = (uint8_t)src16;
    v->reg[22] = (uint8_t)(src16 >> 8);
}

/* 68000 -> VDP: words from the 68000 bus; the source (a word address) wraps inside its 128 KiB block. */
static void dma_68k(rg__gen_machine *m)
{
    rg__gen_vdp *v = &m->st.vdp;
    unsigned n = dma_length(v);
    unsigned lo = v->reg[21] | (unsigned)v->reg[22] << 8;
    uint32_t hi = (uint32_t)(v->reg[23] & 0x7Fu) << 16;
    for (unsigned i = 0; i < n; i++) {
        uint16_t w = rg__gen_read16(m, ((hi | lo) << 1) & 0xFFFFFEu);
        port_write(v, w);
        lo = (lo + 1u) & 0xFFFFu;
    }
    dma_done(v, lo);
}

/* A fill or copy of n bytes keeps status bit 1 set for about the time the VDP takes: bytes per line in the blank
 * (or display off) and during the picture, H40 / H32; a copy moves half as many. */
static void dma_busy(rg__gen_machine *m, unsigned n, int copy)
{
    const rg__gen_vdp *v = &m->st.vdp;
    int blank = v->line >= RG__GEN_HEIGHT || !(v->reg[1] & 0x40u);
    unsigned per_line = blank ? (h40(v) ? 205u : 167u) : (h40(v) ? 18u : 16u);
    if (copy)
        per_line /= 2u;
    uint64_t now = m->st.cpu.cycles * 7u;
    m->st.dma_end = now + (uint64_t)n * RG__GEN_LINE_MCLK / per_line;
}

/* VRAM copy: bytes from the source (registers 21-22, a byte address) to the address register. */
static void dma_copy(rg__gen_vdp *v)
{
    unsigned n = dma_length(v);
    unsigned src = v->reg[21] | (unsigned)v->reg[22] << 8;
    for (unsigned i = 0; i < n; i++) {
        v->vram[v->addr] = v->vram[src];
        src = (src + 1u) & 0xFFFFu;
        v->addr = (uint16_t)(v->addr + v->reg[15]);
    }
    dma_done(v, src);
}

/* VRAM fill, after the data-port write that started it (which is done as a normal write first): the high byte of
 * the data to the address with bit 0 inverted, length times; CRAM and VSRAM get the whole word. */
static void dma_fill(rg__gen_vdp *v, uint16_t val)
{
    port_write(v, val);
    unsigned n = dma_length(v);
    unsigned src = v->reg[21] | (unsigned)v->reg[22] << 8;
    for (unsigned i = 0; i < n; i++) {
        if ((v->code & 0x0Fu) == 1) {
            v->vram[v->addr ^ 1u] = (uint8_t)(val >> 8);
            v->addr = (uint16_t)(v->addr + v->reg[15]);
        } else {
            port_write(v, val);
        }
    }
    v->fill = 0;
    dma_done(v, (src + n) & 0xFFFFu);
}

void rg__gen_vdp_ctrl_write(rg__gen_machine *m, uint16_t val)
{
    rg__gen_vdp *v = &m->st.vdp;
    if (!v->pending) {
        if ((val & 0xC000u) == 0x8000u) {
            unsigned r = (val >> 8) & 0x1Fu;
            if (r < 24)
                v->reg[r] = (uint8_t)val;
            m->st.cpu.ipl = (uint8_t)rg__gen_vdp_ipl(v);
            return;
        }
        v->addr = (uint16_t)((v->addr & 0xC000u) | (val & 0x3FFFu));
        v->code = (uint8_t)((v->code & 0x3Cu) | (val >> 14));
        v->pending = 1;
        return;
    }
    v->pending = 0;
    v->addr = (uint16_t)((v->addr & 0x3FFFu) | (val & 3u) << 14);
    v->code = (uint8_t)((v->code & 3u) | ((val >> 2) & 0x3Cu));
    if ((v->code & 0x20u) && (v->reg[1] & 0x10u)) {
        switch (v->reg[23] >> 6) {
        case 2:
            v->fill = 1;
            break;
        case 3:
            dma_busy(m, dma_length(v), 1);
            dma_copy(v);
            break;
        default:
            dma_68k(m);
            break;
        }
    }
}

void rg__gen_vdp_data_write(rg__gen_machine *m, uint16_t val)
{
    rg__gen_vdp *v = &m->st.vdp;
    v->pending = 0;
    if (v->fill) {
        dma_busy(m, dma_length(v), 0);
        dma_fill(v, val);
    }
    else
        port_write(v, val);
}

uint16_t rg__gen_vdp_data_read(rg__gen_machine *m)
{
    rg__gen_vdp *v = &m->st.vdp;
    v->pending = 0;
    uint16_t r = 0;
    switch (v->code & 0x0Fu) {
    case 0:
        r = (uint16_t)(v->vram[v->addr & 0xFFFEu] << 8 | v->vram[v->addr | 1u]);
        break;
    case 4: {
        unsigned i = (v->addr >> 1) & 0x3Fu;
        r = i < 40 ? v->vsram[i] : v->vsram[0];
        break;
    }
    case 8:
        r = v->cram[(v->addr >> 1) & 0x3Fu];
        break;
    default:
        break;
    }
    v->addr = (uint16_t)(v->addr + v->reg[15]);
    return r;
}

uint16_t rg__gen_vdp_status(rg__gen_machine *m)
{
    rg__gen_vdp *v = &m->st.vdp;
    unsigned pos = line_pos(m);
    int vblank = v->line >= RG__GEN_HEIGHT || !(v->reg[1] & 0x40u);
    int hblank = pos >= 2660u || pos < 80u;
    int busy = m->st.cpu.cycles * 7u < m->st.dma_end;
    uint16_t s = (uint16_t)(0x3400u | 0x0200u /* FIFO empty */ | (unsigned)busy << 1 | (unsigned)v->vflag << 7 |
                            (unsigned)v->sprite_ovf << 6 | (unsigned)v->sprite_col << 5 | (unsigned)v->odd << 4 |
                            (unsigned)vblank << 3 | (unsigned)hblank << 2);
    v->pending = 0;
    v->sprite_ovf = v->sprite_col = 0;
    return s;
}

uint16_t rg__gen_vdp_hv(rg__gen_machine *m)
{
    rg__gen_vdp *v = &m->st.vdp;
    unsigned pos = line_pos(m);
    unsigned hc;
    if (h40(v)) {
        hc = pos * 210u / RG__GEN_LINE_MCLK; /* 0x00-0xB6, then 0xE4-0xFF */
        hc = hc <= 0xB6u ? hc : hc - 0xB7u + 0xE4u;
    } else {
        hc = pos * 171u / RG__GEN_LINE_MCLK; /* 0x00-0x93, then 0xE9-0xFF */
        hc = hc <= 0x93u ? hc : hc - 0x94u + 0xE9u;
    }
    unsigned vc = v->line <= 0xEAu ? v->line : v->line - 0xEBu + 0xE5u;
    return (uint16_t)((vc & 0xFFu) << 8 | (hc & 0xFFu));
}
