/* Genesis Plus GX save states read into plain fields (see gpgx_state.h; the layout is in docs/sms.md and
 * docs/genesis.md, "State import"). A cursor walks the blocks in the order the core writes them; every read is
 * bounds-checked and every field a core converts is range-checked here. */
#include "cores/gpgx_state/gpgx_state.h"

#include "base/base.h"

#include <string.h>

/* Blocks of stable-retro's build whose size is that of a C struct of the core (x86-64): the sound chips' contexts,
 * which we do not read, and the Z80 register block (68 bytes of registers, padding, two host pointers). */
#define YM2413_BLOCK 5984u
#define YM2612_BLOCK 3624u
#define PSG_BLOCK 156u
#define Z80_BLOCK 88u

typedef struct cursor {
    const uint8_t *p;
    size_t len, pos;
    const char *what; /* the block being read, for the message */
} cursor;

static const uint8_t *take(cursor *c, size_t n)
{
    if (c->len - c->pos < n)
        return NULL;
    const uint8_t *r = c->p + c->pos;
    c->pos += n;
    return r;
}

static uint16_t le16(const uint8_t *b)
{
    return (uint16_t)(b[0] | b[1] << 8);
}

static uint32_t le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

#define TAKE(c, ptr, n)                                                                                         \
    do {                                                                                                        \
        if (!((ptr) = take((c), (n))))                                                                          \
            return rg__error(RG_ESTATE, "Genesis Plus GX state: truncated in the %s (%zu bytes; the %s needs %zu "\
                             "more from offset %zu)", (c)->what, (c)->len, (c)->what, (size_t)(n), (c)->pos);   \
    } while (0)
#define BAD(cond, ...)                                                                                          \
    do {                                                                                                        \
        if (cond)                                                                                               \
            return rg__error(RG_ESTATE, "Genesis Plus GX state: " __VA_ARGS__);                                 \
    } while (0)

int rg__gpgx_sniff(const void *src, size_t len)
{
    return src && len >= 16 && memcmp(src, RG__GPGX_MAGIC, sizeof RG__GPGX_MAGIC - 1) == 0;
}

static int read_vdp(cursor *c, rg__gpgx_vdp *v)
{
    const uint8_t *b;
    c->what = "VDP block";
    TAKE(c, v->sat, 0x400);
    TAKE(c, v->vram, 0x10000);
    TAKE(c, v->cram, 0x80);
    TAKE(c, v->vsram, 0x80);
    TAKE(c, b, 0x20);
    memcpy(v->reg, b, 0x20);
    TAKE(c, b, 38);
    v->addr = le16(b);
    v->addr_latch = le16(b + 2);
    v->code = b[4];
    v->pending = b[5];
    v->status = le16(b + 6);
    v->dmafill = (int32_t)le32(b + 8);
    v->fifo_idx = (int32_t)le32(b + 12);
    for (unsigned i = 0; i < 4; i++)
        v->fifo[i] = le16(b + 16 + 2 * i);
    v->h_counter = b[24];
    v->hint_pending = b[25];
    v->vint_pending = b[26];
    v->dma_length = le32(b + 27);
    v->dma_type = b[31];
    v->dma_src = le16(b + 32);
    v->cached_write = (int32_t)le32(b + 34);
    BAD(v->code >= 0x40u, "VDP code register %#x out of range", v->code);
    BAD(v->pending > 1u, "VDP pending flag %u is not 0 or 1", v->pending);
    BAD(v->fifo_idx < 0 || v->fifo_idx > 3, "VDP FIFO index %d out of range", (int)v->fifo_idx);
    BAD(v->hint_pending != 0 && v->hint_pending != 0x10u, "VDP line interrupt flag %#x is not 0 or $10",
        v->hint_pending);
    BAD(v->vint_pending != 0 && v->vint_pending != 0x20u, "VDP frame interrupt flag %#x is not 0 or $20",
        v->vint_pending);
    return RG_OK;
}

/* the PSG's output level at attenuation 0-15 as GPGX stores a volume register (2800 times 10^(-att/10), truncated;
 * 15 is off) */
static const int32_t k_psg_level[16] = {2800, 2224, 1766, 1403, 1114, 885, 703, 558, 443, 352, 280, 222, 176, 140,
                                        111, 0};

static int read_psg(cursor *c, rg__gpgx_psg *p)
{
    const uint8_t *b;
    c->what = "PSG block";
    TAKE(c, b, PSG_BLOCK);
    p->clocks = (int32_t)le32(b);
    p->latch = (int32_t)le32(b + 4);
    p->noise_shift = (int32_t)le32(b + 8);
    for (unsigned i = 0; i < 8; i++)
        p->regs[i] = (int32_t)le32(b + 12 + 4 * i);
    for (unsigned i = 0; i < 4; i++) {
        p->freq_inc[i] = (int32_t)le32(b + 44 + 4 * i);
        p->freq_counter[i] = (int32_t)le32(b + 60 + 4 * i);
        p->polarity[i] = (int32_t)le32(b + 76 + 4 * i);
    }
    /* then each channel's output delta and level (2 x 4 x 2 words): audio only, not read */
    BAD(p->latch < 0 || p->latch > 7, "PSG latch %d out of range", (int)p->latch);
    for (unsigned i = 0; i < 8; i++) {
        if (i & 1u) { /* GPGX keeps a volume's level (its table of 2 dB steps from 2800): back to the attenuation */
            unsigned att = 0;
            while (att < 16 && k_psg_level[att] != p->regs[i])
                att++;
            BAD(att == 16, "PSG register %u holds the level %d, not one of the 16 attenuations", i, (int)p->regs[i]);
            p->regs[i] = (int32_t)att;
        } else if (i == 6) { /* the noise control byte as written (latch or data form): its low 3 bits */
            BAD(p->regs[i] < 0 || p->regs[i] > 0xFF, "PSG register 6 = %d is not a byte", (int)p->regs[i]);
            p->regs[i] &= 7;
        } else {
            BAD(p->regs[i] < 0 || p->regs[i] >= 0x400, "PSG register %u = %d out of range", i, (int)p->regs[i]);
        }
    }
    BAD(p->noise_shift < 0 || p->noise_shift > 0xFFFF, "PSG noise shift register %d out of range",
        (int)p->noise_shift);
    for (unsigned i = 0; i < 4; i++) {
        BAD(p->polarity[i] != 1 && p->polarity[i] != -1, "PSG channel %u polarity %d is not +1 or -1", i,
            (int)p->polarity[i]);
        BAD(p->freq_counter[i] < 0, "PSG channel %u counter %d is negative", i, (int)p->freq_counter[i]);
    }
    return RG_OK;
}

static int read_z80(cursor *c, rg__gpgx_z80 *z)
{
    const uint8_t *b;
    c->what = "Z80 block";
    TAKE(c, b, Z80_BLOCK);
    uint16_t *w[13] = {&z->pc, &z->sp, &z->af, &z->bc, &z->de, &z->hl, &z->ix, &z->iy, &z->wz,
                       &z->af2, &z->bc2, &z->de2, &z->hl2};
    for (unsigned i = 0; i < 13; i++) {
        *w[i] = le16(b + 4 * i);
        BAD(le16(b + 4 * i + 2) != 0, "Z80 register pair %u has bits above 16", i);
    }
    z->r = b[52], z->r2 = b[53], z->iff1 = b[54], z->iff2 = b[55], z->halt = b[56], z->im = b[57], z->i = b[58];
    z->nmi_state = b[59], z->nmi_pending = b[60], z->irq_state = b[61], z->after_ei = b[62];
    z->cycles = le32(b + 64);
    BAD(z->iff1 > 1u || z->iff2 > 1u, "Z80 interrupt flip-flops %u/%u are not 0 or 1", z->iff1, z->iff2);
    BAD(z->im > 2u, "Z80 interrupt mode %u is not 0-2", z->im);
    BAD(z->halt > 1u || z->after_ei > 1u || z->nmi_pending > 1u, "Z80 halt/EI/NMI flags are not 0 or 1");
    BAD(z->irq_state > 3u || z->nmi_state > 3u, "Z80 interrupt line states %u/%u out of range", z->irq_state,
        z->nmi_state);
    return RG_OK;
}

static int read_m68k(cursor *c, rg__gpgx_m68k *m)
{
    const uint8_t *b;
    c->what = "68000 block";
    TAKE(c, b, 90);
    for (unsigned i = 0; i < 8; i++) {
        m->d[i] = le32(b + 4 * i);
        m->a[i] = le32(b + 32 + 4 * i);
    }
    m->pc = le32(b + 64);
    m->sr = le16(b + 68);
    m->usp = le32(b + 70);
    m->isp = le32(b + 74);
    m->cycles = le32(b + 78);
    m->int_level = le32(b + 82);
    m->stopped = le32(b + 86);
    BAD(m->sr & ~0xA71Fu, "68000 status register %#06x has bits the 68000 lacks", m->sr);
    BAD((m->pc & 1u) || m->pc > 0xFFFFFFu, "68000 program counter %#x is odd or past 24 bits", m->pc);
    BAD(m->a[7] != ((m->sr & 0x2000u) ? m->isp : m->usp), "68000 A7 %#x is not the active stack pointer", m->a[7]);
    /* the pending level as the 68000 core keeps it, shifted 8 bits up */
    BAD((m->int_level & 0xFFu) || m->int_level > 0x700u, "68000 interrupt level %#x is not a level 0-7 shifted 8 bits "
        "up", m->int_level);
    m->int_level >>= 8;
    BAD(m->stopped > 3u, "68000 stop state %u out of range", m->stopped);
    return RG_OK;
}

int rg__gpgx_parse(const void *src, size_t len, int md, rg__gpgx_state *out)
{
    memset(out, 0, sizeof *out);
    if (!rg__gpgx_sniff(src, len))
        return rg__error(RG_ESTATE, "not a Genesis Plus GX state (no \"%s\" header)", RG__GPGX_MAGIC);
    const uint8_t *p = src;
    char ver[6];
    for (unsigned i = 0; i < 5; i++)
        ver[i] = (char)(p[11 + i] >= 0x20 && p[11 + i] < 0x7F ? p[11 + i] : '?');
    ver[5] = 0;
    if (memcmp(p + 11, RG__GPGX_VERSION, 5) != 0)
        return rg__error(RG_ESTATE, "Genesis Plus GX state of version %s: only version %s (stable-retro's build) "
                         "can be converted", ver, RG__GPGX_VERSION);
    cursor c = {p, len, 16, "header"};
    int rc;
    const uint8_t *b;
    out->md = md;
    c.what = md ? "work RAM (64 KiB)" : "work RAM (8 KiB)";
    TAKE(&c, out->work_ram, md ? 0x10000u : 0x2000u);
    if (md) {
        c.what = "Z80 RAM";
        TAKE(&c, out->zram, 0x2000);
        TAKE(&c, b, 5);
        out->zstate = b[0];
        out->zbank = le32(b + 1);
        BAD(out->zstate > 3u, "Z80 bus state %u out of range", out->zstate);
        BAD(out->zbank & ~0xFF8000u, "Z80 bank %#x is not a 32 KiB bank of the 68000's space", out->zbank);
    }
    c.what = "I/O registers";
    TAKE(&c, b, 16);
    memcpy(out->io_reg, b, 16);
    if ((rc = read_vdp(&c, &out->vdp)) != RG_OK)
        return rc;
    c.what = md ? "YM2612 block" : "YM2413 block";
    out->fm_size = md ? YM2612_BLOCK : YM2413_BLOCK;
    TAKE(&c, out->fm, out->fm_size);
    if ((rc = read_psg(&c, &out->psg)) != RG_OK)
        return rc;
    c.what = "sound block";
    TAKE(&c, b, 4);
    out->fm_cycles_start = le32(b);
    if (md && (rc = read_m68k(&c, &out->m68k)) != RG_OK)
        return rc;
    if ((rc = read_z80(&c, &out->z80)) != RG_OK)
        return rc;
    c.what = "cartridge block";
    if (md) {
        TAKE(&c, b, 64);
        memcpy(out->map, b, 64);
        for (unsigned i = 0; i < 64; i++)
            BAD(out->map[i] >= 0x80u && out->map[i] < 0xFEu, "cartridge slot %u maps page %#x", i,
                out->map[i]); /* pages of 64 KiB in up to 8 MiB (SSF2 boards), $FE boot ROM, $FF backup RAM */
        TAKE(&c, b, 4);
        memcpy(out->cart_regs, b, 4);
    } else {
        TAKE(&c, b, 4);
        memcpy(out->fcr, b, 4);
    }
    out->size = c.pos;
    return RG_OK;
}
