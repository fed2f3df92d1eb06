/* FCEUmm save states into rg__nes_state (docs/nes.md, "FCEUmm states and equivalence").
 *
 * The layout (little-endian): a 16-byte header ("FCS", 0xFF, the payload's size, FCEU's version number, 0), then
 * sections: a type byte (1 CPU registers and RAM, 2 CPU timing, 3 PPU, 4 joypads, 5 APU, 0x10 the cartridge), the
 * section's size, and entries of a 4-character name (NUL padded), a 32-bit size and the bytes. FCEUmm saves between
 * frames, at the start of line 240 (its frame runs from the post-render line to the end of line 239); the CPU may
 * have run a few dots past it (the negative remainder of its cycle budget, 16 per dot).
 *
 * Every entry we use must be there with its exact size; values are range-checked as they are converted. Entries
 * of sections 1-5 we do not know are ignored (newer FCEUmm versions add some); an entry of the cartridge section
 * that the mapper's conversion does not know is refused, since its meaning would be lost. */
#include "cores/nes/nes_fceumm_state.h"
#include "cores/nes/mapper.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

#define MAX_ENTRIES 256u
#define SEC_CPU 1u
#define SEC_TIMING 2u
#define SEC_PPU 3u
#define SEC_PAD 4u
#define SEC_APU 5u
#define SEC_CART 0x10u

/* FCEUmm's CPU interrupt bits (IQLB) */
#define IQ_EXT 0x001u
#define IQ_NMI2 0x040u
#define IQ_NMI 0x080u
#define IQ_DPCM 0x100u
#define IQ_FCOUNT 0x200u

typedef struct entry {
    uint8_t section;
    uint8_t used;
    char name[4];
    const uint8_t *p;
    uint32_t size;
} entry;

typedef struct parsed {
    entry e[MAX_ENTRIES];
    size_t n;
    int failed;
} parsed;

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int fail(parsed *ps, const char *fmt, const char *a, unsigned b)
{
    if (!ps->failed)
        rg__error(RG_ESTATE, fmt, a, b);
    ps->failed = 1;
    return 0;
}

/* The entry `name` of `section` with exactly `size` bytes; NULL (and the error) when missing or of another size. */
static const uint8_t *get(parsed *ps, unsigned section, const char *name, uint32_t size)
{
    char n4[4] = {0};
    memcpy(n4, name, strlen(name) < 4 ? strlen(name) : 4);
    for (size_t i = 0; i < ps->n; i++) {
        entry *e = &ps->e[i];
        if (e->section != section || memcmp(e->name, n4, 4) != 0)
            continue;
        if (e->size != size) {
            fail(ps, "nes: FCEUmm state: entry %s has the wrong size (%u bytes)", name, e->size);
            return NULL;
        }
        e->used = 1;
        return e->p;
    }
    fail(ps, "nes: FCEUmm state: entry %s is missing (section %u)", name, section);
    return NULL;
}

/* Like get, but an absent entry is no error (NULL). */
static const uint8_t *get_opt(parsed *ps, unsigned section, const char *name, uint32_t size)
{
    char n4[4] = {0};
    memcpy(n4, name, strlen(name) < 4 ? strlen(name) : 4);
    for (size_t i = 0; i < ps->n; i++)
        if (ps->e[i].section == section && memcmp(ps->e[i].name, n4, 4) == 0)
            return get(ps, section, name, size);
    return NULL;
}

static uint8_t u8(parsed *ps, unsigned section, const char *name)
{
    const uint8_t *p = get(ps, section, name, 1);
    return p ? p[0] : 0;
}

static uint32_t u32(parsed *ps, unsigned section, const char *name)
{
    const uint8_t *p = get(ps, section, name, 4);
    return p ? le32(p) : 0;
}

/* A value that must be at most `max`. */
static unsigned ranged(parsed *ps, unsigned v, unsigned max, const char *name)
{
    if (v > max) {
        fail(ps, "nes: FCEUmm state: entry %s is out of range (%u)", name, v);
        return 0;
    }
    return v;
}

static int parse(parsed *ps, const uint8_t *p, size_t len)
{
    if (len < 16 || memcmp(p, "FCS", 3) != 0)
        return fail(ps, "nes: FCEUmm state: %s (%u bytes)", "no FCS header", (unsigned)len);
    if (p[3] != 0xFF)
        return fail(ps, "nes: FCEUmm state: %s (format byte %u)", "an old FCE Ultra format", p[3]);
    uint32_t total = le32(p + 4);
    if (total > len - 16)
        return fail(ps, "nes: FCEUmm state: %s (%u bytes promised)", "truncated", total);
    size_t off = 16, end = 16 + (size_t)total;
    while (off < end) {
        if (end - off < 5)
            return fail(ps, "nes: FCEUmm state: %s at byte %u", "truncated section header", (unsigned)off);
        unsigned type = p[off];
        uint32_t size = le32(p + off + 1);
        off += 5;
        if (size > end - off)
            return fail(ps, "nes: FCEUmm state: %s (section %u)", "truncated section", type);
        size_t send = off + size;
        while (off < send) {
            if (send - off < 8)
                return fail(ps, "nes: FCEUmm state: %s (section %u)", "truncated entry header", type);
            uint32_t esize = le32(p + off + 4);
            if (esize > send - off - 8)
                return fail(ps, "nes: FCEUmm state: %s (section %u)", "truncated entry", type);
            if (ps->n == MAX_ENTRIES)
                return fail(ps, "nes: FCEUmm state: %s (more than %u)", "too many entries", MAX_ENTRIES);
            entry *e = &ps->e[ps->n++];
            e->section = (uint8_t)type;
            e->used = 0;
            memcpy(e->name, p + off, 4);
            e->p = p + off + 8;
            e->size = esize;
            off += 8 + (size_t)esize;
        }
    }
    return 1;
}

/* --- the parts */

static void read_cpu(parsed *ps, rg__nes_state *s)
{
    const uint8_t *pc = get(ps, SEC_CPU, "PC", 2), *ram = get(ps, SEC_CPU, "RAM", 0x800);
    if (pc)
        s->cpu.pc = (uint16_t)(pc[0] | pc[1] << 8);
    s->cpu.a = u8(ps, SEC_CPU, "A");
    s->cpu.x = u8(ps, SEC_CPU, "X");
    s->cpu.y = u8(ps, SEC_CPU, "Y");
    s->cpu.s = u8(ps, SEC_CPU, "S");
    s->cpu.p = (uint8_t)((u8(ps, SEC_CPU, "P") | RG_M6502_U) & ~RG_M6502_B);
    s->open_bus = u8(ps, SEC_CPU, "DB");
    if (ram)
        memcpy(s->ram, ram, 0x800);
    s->cpu.jammed = (uint8_t)ranged(ps, u8(ps, SEC_TIMING, "JAMM"), 1, "JAMM");
    s->cpu.poll = RG__M6502_POLL_NOW;
    s->cpu.poll_arg = 0;
    s->cpu.no_decimal = 1;
    uint32_t iq = u32(ps, SEC_TIMING, "IQLB");
    if (iq & ~(IQ_EXT | IQ_NMI2 | IQ_NMI | IQ_DPCM | IQ_FCOUNT))
        fail(ps, "nes: FCEUmm state: entry %s has interrupt bits we do not know (%u)", "IQLB", (unsigned)iq);
    s->cpu.nmi_pending = (iq & (IQ_NMI | IQ_NMI2)) != 0;
    s->nmi_next = 0;
    s->irq = (uint8_t)(((iq & IQ_EXT) ? RG__NES_IRQ_MAPPER : 0u) | ((iq & IQ_DPCM) ? RG__NES_IRQ_DMC : 0u) |
                       ((iq & IQ_FCOUNT) ? RG__NES_IRQ_FRAME : 0u));
    s->cpu.irq_line = s->irq != 0;
    const uint8_t *tsbs = get(ps, SEC_TIMING, "TSBS", 8);
    if (tsbs) {
        uint64_t t = (uint64_t)le32(tsbs) | (uint64_t)le32(tsbs + 4) << 32;
        if (t > ((uint64_t)1 << 48)) {
            fail(ps, "nes: FCEUmm state: entry %s is out of range (%u)", "TSBS", 0);
            t = 0;
        }
        s->cycles = t;
    }
    s->dma_page = 0x100;
    s->dmc_halt = 0;
    s->ppu_data_next = 0;
}

static void read_ppu(parsed *ps, rg__nes_state *s, unsigned overshoot_dots)
{
    rg__nes_ppu *p = &s->ppu;
    const uint8_t *nt = get(ps, SEC_PPU, "NTAR", 0x800), *pal = get(ps, SEC_PPU, "PRAM", 32),
                  *oam = get(ps, SEC_PPU, "SPRA", 256), *regs = get(ps, SEC_PPU, "PPUR", 4),
                  *radd = get(ps, SEC_PPU, "RADD", 2), *tadd = get(ps, SEC_PPU, "TADD", 2);
    if (nt)
        memcpy(s->cart.vram, nt, 0x800);
    if (pal)
        for (int i = 0; i < 32; i++)
            p->palette[i] = pal[i] & 0x3Fu; /* the upper bits are not stored by the chip */
    if (oam)
        memcpy(p->oam, oam, 256);
    if (regs) {
        p->ctrl = regs[0];
        p->mask = regs[1];
        p->status = regs[2] & 0xE0u;
        p->oam_addr = regs[3];
    }
    p->v = (uint16_t)ranged(ps, radd ? (unsigned)(radd[0] | radd[1] << 8) : 0, 0x7FFF, "RADD");
    p->t = (uint16_t)ranged(ps, tadd ? (unsigned)(tadd[0] | tadd[1] << 8) : 0, 0x7FFF, "TADD");
    p->x = (uint8_t)ranged(ps, u8(ps, SEC_PPU, "XOFF"), 7, "XOFF");
    p->w = (uint8_t)ranged(ps, u8(ps, SEC_PPU, "VTGL"), 1, "VTGL");
    p->read_buf = u8(ps, SEC_PPU, "VBUF");
    p->io_latch = u8(ps, SEC_PPU, "PGEN");
    /* KOOK: the pre-render line ahead is the short one (FCEUmm shortens every other one) */
    p->odd = (uint8_t)ranged(ps, u8(ps, SEC_PPU, "KOOK"), 1, "KOOK");
    /* DEAD: FCEUmm's frames without a PPU after power-on; none of ours (read for the size check only) */
    (void)ranged(ps, u8(ps, SEC_PPU, "DEAD"), 255, "DEAD");
    (void)u8(ps, SEC_PPU, "PSPL");
    /* the position: line 240, past its first dots by the CPU's overshoot */
    p->cycle = s->cycles;
    p->line = 240;
    p->dot = (uint16_t)overshoot_dots;
    p->dots = s->cycles * 3u;
    p->frames = s->frame;
    for (int i = 0; i < 8; i++)
        p->latch_frame[i] = p->frames;
    p->vbl_suppress = 0;
    p->nmi_out = (uint8_t)((p->status & p->ctrl) >> 7);
    p->skip = 0;
    p->sec_count = 0;
    p->spr0_next = p->spr0_line = p->ovf_pending = p->spr_line_used = 0;
    memset(p->sec_oam, 0xFF, sizeof p->sec_oam);
    memset(p->spr_line, 0, sizeof p->spr_line);
}

static void read_pads(parsed *ps, rg__nes_state *s)
{
    const uint8_t *rb = get(ps, SEC_PAD, "JYRB", 2), *joy = get(ps, SEC_PAD, "JOYS", 4);
    s->pad_strobe = (uint8_t)(u8(ps, SEC_PAD, "LSTS") & 1u);
    for (int i = 0; i < 2 && rb && joy; i++) {
        unsigned n = rb[i] > 8 ? 8u : rb[i];
        /* FCEUmm shifts the frame's buttons out as they are read, then ones */
        s->pad_shift[i] = n >= 8 ? 0xFFu : (uint8_t)((joy[i] >> n) | (0xFFu << (8 - n)));
        s->pad_read[i] = (uint8_t)n;
        s->pad_bit[i] = 0;
        s->pad_read_cycle[i] = 0;
    }
}

/* 15-bit mirror image: FCEUmm shifts its noise register left, ours shifts right. */
static uint16_t reverse15(uint16_t v)
{
    uint16_t r = 0;
    for (int i = 0; i < 15; i++)
        if (v >> i & 1u)
            r = (uint16_t)(r | 1u << (14 - i));
    return r;
}

static void read_env(parsed *ps, rg__nes_apu_env *e, int k)
{
    char n[5] = {'E', (char)('0' + k), 'D', '1', 0};
    unsigned count = ranged(ps, u8(ps, SEC_APU, n), 16, n);
    n[2] = 'D';
    n[3] = 'V';
    unsigned vol = ranged(ps, u8(ps, SEC_APU, n), 15, n);
    n[2] = 'S';
    n[3] = 'P';
    (void)u8(ps, SEC_APU, n);
    n[2] = 'M';
    n[3] = 'O';
    (void)u8(ps, SEC_APU, n);
    e->start = 0;
    e->divider = (uint8_t)(count ? count - 1u : 0u);
    e->decay = (uint8_t)vol;
}

static void read_apu(parsed *ps, rg__nes_state *s)
{
    rg__nes_apu *a = &s->apu;
    const uint8_t *psg = get(ps, SEC_APU, "PSG", 16), *swct = get(ps, SEC_APU, "SWCT", 2),
                  *nreg = get(ps, SEC_APU, "NREG", 2);
    static const char *const k_len[4] = {"LEN0", "LEN1", "LEN2", "LEN3"};
    unsigned len[4];
    for (int i = 0; i < 4; i++)
        len[i] = ranged(ps, u32(ps, SEC_APU, k_len[i]), 254, k_len[i]);
    a->cycle = s->cycles;
    a->enabled = u8(ps, SEC_APU, "ENCH") & 0x0Fu;
    for (int i = 0; i < 2; i++) {
        rg__nes_apu_pulse *q = &a->pulse[i];
        const char *crf = i ? "CRF2" : "CRF1";
        q->period = (uint16_t)ranged(ps, u32(ps, SEC_APU, crf), 0x7FF, crf);
        if (psg) {
            q->ctrl = psg[4 * i];
            q->sweep = psg[4 * i + 1];
        }
        unsigned sc = swct ? ranged(ps, swct[i], 8, "SWCT") : 0;
        q->sweep_div = (uint8_t)(sc ? sc - 1u : 0u);
        q->sweep_reload = 0;
        q->length = (uint8_t)len[i];
        read_env(ps, &q->env, i);
    }
    if (psg) {
        a->tri.ctrl = psg[8];
        a->tri.period = (uint16_t)(psg[10] | (psg[11] & 7u) << 8);
        a->noise.ctrl = psg[12];
        a->noise.mode_period = psg[14] & 0x8Fu;
    }
    a->tri.linear = (uint8_t)ranged(ps, u8(ps, SEC_APU, "TRIC"), 127, "TRIC");
    a->tri.linear_reload = (uint8_t)ranged(ps, u8(ps, SEC_APU, "TRIM"), 1, "TRIM");
    a->tri.length = (uint8_t)len[2];
    a->noise.length = (uint8_t)len[3];
    if (nreg) {
        uint16_t r = (uint16_t)(nreg[0] | nreg[1] << 8);
        if (r == 0 || r > 0x7FFF)
            fail(ps, "nes: FCEUmm state: entry %s is out of range (%u)", "NREG", r);
        else
            a->noise.lfsr = reverse15(r);
    }
    read_env(ps, &a->noise.env, 2);
    (void)get(ps, SEC_APU, "SWEE", 2);

    /* the frame counter: FCEUmm counts down to its next step (FCNT) in 1/48 CPU cycles */
    unsigned mode = u8(ps, SEC_APU, "IQFM");
    ranged(ps, mode, 3, "IQFM");
    unsigned step = ranged(ps, u8(ps, SEC_APU, "FCNT"), 3, "FCNT");
    uint32_t fh = u32(ps, SEC_APU, "FHCN");
    unsigned to_next = (fh & 0x80000000u) ? 0u : (fh + 47u) / 48u;
    static const unsigned k_four[4] = {7457, 14913, 22371, 29829};
    static const unsigned k_five[4] = {37281, 7457, 14913, 22371}; /* FCEUmm's five-step step 0 comes at once */
    unsigned at = (mode & 2u) ? k_five[step & 3u] : k_four[step & 3u];
    if (to_next > at) {
        if (!ps->failed)
            fail(ps, "nes: FCEUmm state: entry %s is out of range (%u)", "FHCN", (unsigned)fh);
        to_next = at;
    }
    a->fc_reg = (uint8_t)(mode << 6);
    a->fc_mode = (uint8_t)((mode >> 1) & 1u);
    a->fc_count = (uint16_t)(at - to_next);
    a->fc_pending = 0;
    a->fc_pending_mode = 0;
    a->fc_reset_at = 0;
    a->len_done_at = 0;
    a->len_clocked = 0;
    a->fc_line_at = 0;
    unsigned sirq = u8(ps, SEC_APU, "SIRQ");
    a->fc_irq = (sirq >> 6) & 1u;
    /* the DMC's flag: the version stable-retro ships keeps it set after a $4010 write without bit 7, which drops
     * only its IRQ line (CastlevaniaIIIDraculasCurse-Nes' state: SIRQ $80, 5FMT $08, IQLB 0); the chip clears the
     * flag there, and ours raises the line with the flag, so it is cleared */
    a->dmc.irq = (u8(ps, SEC_APU, "5FMT") & 0x80u) ? (sirq >> 7) & 1u : 0u;

    /* the DMC */
    rg__nes_apu_dmc *d = &a->dmc;
    d->ctrl = u8(ps, SEC_APU, "5FMT") & 0xCFu;
    d->start = u8(ps, SEC_APU, "5ADL");
    d->len = u8(ps, SEC_APU, "5SZL");
    d->level = u8(ps, SEC_APU, "RWDA") & 0x7Fu;
    d->addr = (uint16_t)(0x8000u | ranged(ps, u32(ps, SEC_APU, "5ADD"), 0x7FFF, "5ADD"));
    d->remaining = (uint16_t)ranged(ps, u32(ps, SEC_APU, "5SIZ"), 4081, "5SIZ");
    uint32_t acc = u32(ps, SEC_APU, "5ACC");
    d->timer = (uint16_t)(acc >= 1 && acc <= 428 ? acc : 428u);
    d->full = (uint8_t)ranged(ps, u8(ps, SEC_APU, "5VDM"), 1, "5VDM");
    d->buffer = 0; /* FCEUmm does not save the byte */
    d->shift = u8(ps, SEC_APU, "5SHF");
    d->bits = (uint8_t)(8u - (ranged(ps, u8(ps, SEC_APU, "5BIT"), 7, "5BIT")));
    d->silence = (uint8_t)!ranged(ps, u8(ps, SEC_APU, "5VSP"), 1, "5VSP");
    a->dmc_fetch = 0;
    a->dmc_request_at = (d->remaining && !d->full) ? s->cycles + 1u : 0u;
    /* FCEUmm keeps the DMC's IRQ line apart from its flag only briefly; ours follows the flags */
    s->irq = (uint8_t)((s->irq & RG__NES_IRQ_MAPPER) | (a->fc_irq ? RG__NES_IRQ_FRAME : 0u) |
                       (d->irq ? RG__NES_IRQ_DMC : 0u));
    s->cpu.irq_line = s->irq != 0;
}

/* PRG-RAM (WRAM), CHR-RAM (CHRR) and the extra nametables (EXNR) where the cartridge has them. */
static void read_cart_ram(parsed *ps, const rg__nes_machine *m, rg__nes_state *s)
{
    for (size_t i = 0; i < ps->n; i++) {
        entry *e = &ps->e[i];
        if (e->section != SEC_CART)
            continue;
        if (memcmp(e->name, "WRAM", 4) == 0) {
            if (e->size > RG__NES_PRG_RAM_MAX || (m->info.prg_ram_size && e->size > m->info.prg_ram_size))
                fail(ps, "nes: FCEUmm state: entry %s is larger than the cartridge's RAM (%u bytes)", "WRAM", e->size);
            else
                memcpy(s->cart.prg_ram, e->p, e->size);
            e->used = 1;
        } else if (memcmp(e->name, "CHRR", 4) == 0) {
            if (m->chr || e->size > RG__NES_CHR_RAM_MAX)
                fail(ps, "nes: FCEUmm state: entry %s does not fit the cartridge (%u bytes)", "CHRR", e->size);
            else
                memcpy(s->cart.chr_ram, e->p, e->size);
            e->used = 1;
        } else if (memcmp(e->name, "EXNR", 4) == 0) {
            if (e->size != 0x800)
                fail(ps, "nes: FCEUmm state: entry %s has the wrong size (%u bytes)", "EXNR", e->size);
            else
                memcpy(s->cart.vram + 0x800, e->p, 0x800);
            e->used = 1;
        }
    }
}

/* Every entry `name` of the cartridge section marked used (FCEUmm saves some twice, e.g. the 5B's sound registers). */
static void skip_all(parsed *ps, const char *name)
{
    char n4[4] = {0};
    memcpy(n4, name, strlen(name) < 4 ? strlen(name) : 4);
    for (size_t i = 0; i < ps->n; i++)
        if (ps->e[i].section == SEC_CART && memcmp(ps->e[i].name, n4, 4) == 0)
            ps->e[i].used = 1;
}

static uint16_t le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

/* MMC5 (mapper 5; entry names, sizes and meanings as FCEUmm's board mmc5.c saves them in the version stable-retro
 * ships: CastlevaniaIIIDraculasCurse-Nes). ERAM the 1 KiB ExRAM (our four-screen page vram[$800-$BFF]), SPLM/SPLS/
 * SPLP the vertical split ($5200-$5202: not emulated, so SPLM bit 7 must be clear), 5130 the CHR high bits, PRGB
 * $5114-$5117, CHRA/CHRB the 8 + 4 CHR registers (16-bit, 10 bits used; $FFFF as FCEUmm's power-on leaves them,
 * i.e. the last bank), WRMP $5113, WRME $5102/$5103, ABMD the set written last, IRQS/IRQE $5203/$5204 bit 7, CHRM
 * $5104, NTAM/NTFL/ATFL $5105-$5107, IRQR the $5204 status (bit 7 pending, bit 6 in frame), LCTR the scanline counter,
 * PSIZ/VSIZ $5100/$5101, MUL2 the two multiplier bytes; WRPR/MEMI (derived from PRGB/PSIZ) and the sound's entries
 * (not emulated) are skipped. FCEUmm keeps whole bytes where the chip uses two bits ($5100-$5104, $5130): masked
 * as FCEUmm's own use masks them. */
static void read_mmc5(parsed *ps, rg__nes_state *s)
{
    uint8_t *r = s->cart.regs;
    const uint8_t *exram = get(ps, SEC_CART, "ERAM", 0x400), *prg = get(ps, SEC_CART, "PRGB", 4);
    const uint8_t *cra = get(ps, SEC_CART, "CHRA", 16), *crb = get(ps, SEC_CART, "CHRB", 8);
    const uint8_t *wrme = get(ps, SEC_CART, "WRME", 2), *mul = get(ps, SEC_CART, "MUL2", 2);
    static const char *const k_skip[16] = {"SPLS", "SPLP", "WRPR", "MEMI", "SDW0", "SDW1", "SDEV", "SDEN",
                                           "SDRU", "SDRW", "SDRC", "DCT0", "DCT1", "BC00", "BC01", "BC02"};
    for (int i = 0; i < 16; i++)
        skip_all(ps, k_skip[i]);
    skip_all(ps, "VCT0");
    skip_all(ps, "VCT1");
    ranged(ps, u8(ps, SEC_CART, "SPLM") & 0x80u, 0, "SPLM");
    if (exram)
        memcpy(s->cart.vram + 0x800, exram, 0x400);
    r[0] = u8(ps, SEC_CART, "PSIZ") & 3u;
    r[1] = u8(ps, SEC_CART, "VSIZ") & 3u;
    if (wrme) {
        r[2] = wrme[0] & 3u;
        r[3] = wrme[1] & 3u;
    }
    r[4] = u8(ps, SEC_CART, "CHRM") & 3u;
    r[5] = u8(ps, SEC_CART, "NTAM");
    r[6] = u8(ps, SEC_CART, "NTFL");
    unsigned at = u8(ps, SEC_CART, "ATFL");
    /* FCEUmm fills the attributes with at | at << 2 | at << 4 | at << 6: ours with (at & 3) * $55 */
    if ((uint8_t)(at | at << 2 | at << 4 | at << 6) != (at & 3u) * 0x55u)
        ranged(ps, at, 3, "ATFL");
    r[7] = (uint8_t)(at & 3u);
    r[8] = u8(ps, SEC_CART, "WRMP");
    if (prg)
        memcpy(r + 9, prg, 4);
    r[13] = u8(ps, SEC_CART, "5130") & 3u;
    r[14] = u8(ps, SEC_CART, "IRQS");
    unsigned ie = u8(ps, SEC_CART, "IRQE");
    if (ie != 0 && ie != 0x80u)
        ranged(ps, ie, 0, "IRQE");
    r[15] = (uint8_t)(ie >> 7);
    unsigned st = u8(ps, SEC_CART, "IRQR");
    ranged(ps, st & 0x3Fu, 0, "IRQR");
    r[16] = (uint8_t)((st >> 7) & 1u);
    r[17] = (uint8_t)((st >> 6) & 1u);
    r[18] = u8(ps, SEC_CART, "LCTR");
    if (mul) {
        r[19] = mul[0];
        r[20] = mul[1];
    }
    r[21] = (uint8_t)ranged(ps, u8(ps, SEC_CART, "ABMD"), 1, "ABMD");
    r[22] = 0; /* outside rendering the PPU fetches with the set written last */
    for (unsigned i = 0; i < 12 && cra && crb; i++) {
        unsigned v = i < 8 ? le16(cra + 2 * i) : le16(crb + 2 * (i - 8));
        const char *name = i < 8 ? "CHRA" : "CHRB";
        if (v == 0xFFFFu)
            v = 0x3FFu;
        v = ranged(ps, v, 0x3FF, name);
        s->cart.chip_ram[2 * i] = (uint8_t)v;
        s->cart.chip_ram[2 * i + 1] = (uint8_t)(v >> 8);
    }
    /* our IRQ line is enabled && pending; FCEUmm's can differ (a $5204 write drops it, pending or not) */
    int line = (s->irq & RG__NES_IRQ_MAPPER) != 0;
    if (line != (r[15] && r[16]))
        fail(ps, "nes: FCEUmm state: entry %s disagrees with the mapper IRQ line (%u)", "IRQR", st);
}

/* The cartridge entries of the mappers added for stable-retro's further games (docs/nes.md, "stable-retro's NES
 * games and their mappers"): the names and meanings as FCEUmm's boards save them, seen in the integrations' states.
 * 0 when `m`'s mapper is not one of them. */
static int read_more_mappers(parsed *ps, const rg__nes_machine *m, rg__nes_state *s)
{
    uint8_t *r = s->cart.regs;
    switch (m->info.mapper) {
    case 87: case 140: case 184: {
        /* FCEUmm's data-latch boards: LATC the value written, BUSC the bus-conflict flag */
        unsigned v = u8(ps, SEC_CART, "LATC");
        (void)u8(ps, SEC_CART, "BUSC");
        if (m->info.mapper == 87)
            r[0] = (uint8_t)(((v >> 1) & 1u) | ((v << 1) & 2u));
        else
            r[0] = (uint8_t)(v & (m->info.mapper == 140 ? 0x3Fu : 0x77u));
        return 1;
    }
    case 185:
        r[0] = u8(ps, SEC_CART, "DREG"); /* the value written */
        return 1;
    case 5:
        read_mmc5(ps, s);
        return 1;
    case 9: case 10: {
        /* FCEUmm's MMC2/MMC4 board: CREG the four CHR banks ($FD/$FE for $0000, then for $1000), PREG, MIRR
         * (FCEUmm's: 0 horizontal, 1 vertical), LAT0/LAT1 the latches (0: $FD, 1: $FE) */
        const uint8_t *c = get(ps, SEC_CART, "CREG", 4);
        r[0] = (uint8_t)ranged(ps, u8(ps, SEC_CART, "PREG"), 0x0F, "PREG");
        r[5] = (uint8_t)(ranged(ps, u8(ps, SEC_CART, "MIRR"), 1, "MIRR") ^ 1u);
        r[6] = (uint8_t)ranged(ps, u8(ps, SEC_CART, "LAT0"), 1, "LAT0");
        r[7] = (uint8_t)ranged(ps, u8(ps, SEC_CART, "LAT1"), 1, "LAT1");
        for (int i = 0; c && i < 4; i++)
            r[1 + i] = (uint8_t)ranged(ps, c[i], 0x1F, "CREG");
        return 1;
    }
    case 33: {
        /* PREG the eight registers (PRG, PRG, 2 KiB CHR x2, 1 KiB CHR x4), MIRR FCEUmm's mirroring (0 horizontal,
         * 1 vertical); IRQA/IRQC/IRQL are mapper 48's IRQ, which 33 has not: kept idle */
        const uint8_t *p = get(ps, SEC_CART, "PREG", 8);
        unsigned mirr = ranged(ps, u8(ps, SEC_CART, "MIRR"), 1, "MIRR");
        if (ranged(ps, u8(ps, SEC_CART, "IRQA"), 0, "IRQA"))
            return 1;
        (void)get(ps, SEC_CART, "IRQC", 2);
        (void)get(ps, SEC_CART, "IRQL", 2);
        if (!p)
            return 1;
        r[0] = (uint8_t)((p[0] & 0x3Fu) | (mirr ? 0u : 0x40u));
        r[1] = p[1] & 0x3Fu;
        memcpy(r + 2, p + 2, 6);
        return 1;
    }
    case 32: {
        /* PREG (4 bytes, the first two the PRG registers), CREG the CHR banks, MIRR the $9000 register */
        const uint8_t *p = get(ps, SEC_CART, "PREG", 4), *c = get(ps, SEC_CART, "CREG", 8);
        r[1] = u8(ps, SEC_CART, "MIRR") & 3u;
        if (p) {
            r[0] = p[0] & 0x1Fu;
            r[2] = p[1] & 0x1Fu;
        }
        if (c)
            memcpy(r + 8, c, 8);
        return 1;
    }
    case 75: {
        /* MODE the $9000 register, CREG the low CHR bits, PREG the three PRG banks */
        const uint8_t *c = get(ps, SEC_CART, "CREG", 2), *p = get(ps, SEC_CART, "PREG", 3);
        r[1] = u8(ps, SEC_CART, "MODE") & 7u;
        if (c) {
            r[4] = (uint8_t)ranged(ps, c[0], 15, "CREG");
            r[5] = (uint8_t)ranged(ps, c[1], 15, "CREG");
        }
        if (p) {
            r[0] = p[0] & 0x0Fu;
            r[2] = p[1] & 0x0Fu;
            r[3] = p[2] & 0x0Fu;
        }
        return 1;
    }
    case 22: {
        /* FCEUmm's VRC2/VRC4 board: PREG, CREG (8-bit CHR banks), CRGH (high bits, pirate boards: zero), CMDR (VRC4's
         * PRG swap: clear on VRC2), CMDI, MIRR (0 vertical, 1 horizontal), BIGB, MAK, and the VRC4 IRQ (idle) */
        const uint8_t *p = get(ps, SEC_CART, "PREG", 2), *c = get(ps, SEC_CART, "CREG", 8);
        const uint8_t *hi = get(ps, SEC_CART, "CRGH", 16);
        for (int i = 0; hi && i < 16; i++)
            ranged(ps, hi[i], 0, "CRGH");
        ranged(ps, u8(ps, SEC_CART, "CMDR") & 2u, 0, "CMDR");
        (void)u8(ps, SEC_CART, "CMDI");
        r[2] = (uint8_t)ranged(ps, u8(ps, SEC_CART, "MIRR"), 1, "MIRR");
        ranged(ps, u8(ps, SEC_CART, "BIGB"), 0, "BIGB");
        (void)get_opt(ps, SEC_CART, "MAK", 1);
        (void)get(ps, SEC_CART, "IRQC", 2);
        (void)u8(ps, SEC_CART, "IRQL");
        ranged(ps, u8(ps, SEC_CART, "IRQA"), 0, "IRQA");
        if (p) {
            r[0] = p[0] & 0x1Fu;
            r[1] = p[1] & 0x1Fu;
        }
        if (c)
            memcpy(r + 8, c, 8);
        return 1;
    }
    case 206:
        if (get_opt(ps, SEC_CART, "DREG", 8)) {
            /* FCEUmm's Namco 108 board: CMD, DREG R0-R7 (R0/R1 in 2 KiB units) */
            const uint8_t *d = get(ps, SEC_CART, "DREG", 8);
            r[8] = (uint8_t)ranged(ps, u8(ps, SEC_CART, "CMD"), 7, "CMD");
            for (int i = 0; i < 8; i++)
                r[i] = (uint8_t)(i < 2 ? (d[i] << 1) & 0x3Fu : d[i] & (i >= 6 ? 0x0Fu : 0x3Fu));
        } else {
            /* run as an MMC3 (the states stable-retro ships): its entries, without mirroring and IRQ */
            const uint8_t *d = get(ps, SEC_CART, "REGS", 8);
            r[8] = u8(ps, SEC_CART, "CMD") & 7u;
            for (int i = 0; d && i < 8; i++)
                r[i] = (uint8_t)(d[i] & (i >= 6 ? 0x0Fu : 0x3Fu));
            (void)u8(ps, SEC_CART, "A000");
            (void)u8(ps, SEC_CART, "A001");
            (void)u8(ps, SEC_CART, "IRQL");
            (void)u8(ps, SEC_CART, "IRQC");
            (void)u8(ps, SEC_CART, "IRQR");
            ranged(ps, u8(ps, SEC_CART, "IRQA"), 0, "IRQA");
            (void)get_opt(ps, SEC_CART, "KTEX", 1);
        }
        return 1;
    default:
        return 0;
    }
}

/* Namco 163 (mapper 19; entry names and meanings as FCEUmm's board n106.c saves them). Always: IRAM the chip's 128
 * bytes of RAM, PRG the banks at $8000/$A000/$C000 (the value & $3F, as FCEUmm keeps it), CHR the eight pattern
 * windows, NTA the four nametable windows. Newer FCEUmm versions add IRQC (the counter, 15 bits) and IRQA ($80
 * counting), GORF the $F800 address port (named the other way round in FCEUmm: GORF holds `dopol`, DOPO holds
 * `gorfus`), DOPO the $E800 bits 6-7, GORK the $E000 bits 6-7, and the sound's play positions (IDX0-7, VCT0-7, BC00:
 * not emulated, skipped). A state without them (the version stable-retro ships: YoukaiDouchuuki-Nes) is loaded as
 * FCEUmm loads it in a fresh process: counter stopped at 0, address port 0, and $E800 bits 6-7 as FCEUmm's
 * power-on leaves them (set: pattern windows $E0-$FF show CHR-ROM, not the console's nametables). */
static void read_namco163(parsed *ps, const rg__nes_machine *m, rg__nes_state *s)
{
    uint8_t *r = s->cart.regs;
    const uint8_t *ram = get(ps, SEC_CART, "IRAM", 128), *p = get(ps, SEC_CART, "PRG", 3);
    const uint8_t *c = get(ps, SEC_CART, "CHR", 8), *nt = get(ps, SEC_CART, "NTA", 4);
    const uint8_t *ic = get_opt(ps, SEC_CART, "IRQC", 2), *ia = get_opt(ps, SEC_CART, "IRQA", 1);
    const uint8_t *port = get_opt(ps, SEC_CART, "GORF", 1), *e800 = get_opt(ps, SEC_CART, "DOPO", 1);
    const uint8_t *e000 = get_opt(ps, SEC_CART, "GORK", 1);
    static const char *const k_sound[17] = {"IDX0", "IDX1", "IDX2", "IDX3", "IDX4", "IDX5", "IDX6", "IDX7", "VCT0",
                                            "VCT1", "VCT2", "VCT3", "VCT4", "VCT5", "VCT6", "VCT7", "BC00"};
    for (int i = 0; i < 17; i++)
        (void)get_opt(ps, SEC_CART, k_sound[i], 4);
    if (ram)
        memcpy(s->cart.chip_ram, ram, 128);
    if (p)
        for (int i = 0; i < 3; i++)
            r[12 + i] = (uint8_t)ranged(ps, p[i], 0x3F, "PRG");
    if (c)
        memcpy(r, c, 8);
    for (int i = 0; nt && i < 4; i++) {
        if (nt[i] < 0xE0u && !m->chr) /* FCEUmm would show CHR-RAM there, ours the console's nametables */
            fail(ps, "nes: FCEUmm state: entry %s is out of range (%u)", "NTA", nt[i]);
        r[8 + i] = nt[i];
    }
    r[12] = (uint8_t)(r[12] | (e000 ? e000[0] & 0xC0u : 0u));
    r[13] = (uint8_t)(r[13] | (e800 ? e800[0] & 0xC0u : 0xC0u));
    r[15] = port ? port[0] : 0;
    if ((ic == NULL) != (ia == NULL)) {
        fail(ps, "nes: FCEUmm state: entry %s is missing (section %u)", ic ? "IRQA" : "IRQC", SEC_CART);
        return;
    }
    unsigned count = ic ? ranged(ps, le16(ic), 0x7FFF, "IRQC") : 0u;
    unsigned on = ia ? ranged(ps, ia[0], 0x80, "IRQA") : 0u;
    if (on && on != 0x80u)
        ranged(ps, on, 0, "IRQA");
    s->cart.counters[0] = (uint16_t)(count | (on ? 0x8000u : 0u));
}

/* The mappers with CPU-clocked IRQ counters (entry names and meanings as FCEUmm's boards 65.c, 18.c, 67.c, 69.c and
 * the VRC2/VRC4 board save them). FCEUmm's counters run their own way (a different point of firing), so a state
 * whose counter is running is refused (IRQA must be 0); the counter and reload values are kept. 0 when `m`'s mapper
 * is not one of them. Namco 163 (19) is the exception: its counter counts CPU cycles up to $7FFF in both (FCEUmm
 * adds them per instruction, so its IRQ may come a few cycles later; not compared frame by frame), so a running
 * counter is converted; stable-retro's FCEUmm saves none. */
static int read_clocked_mappers(parsed *ps, const rg__nes_machine *m, rg__nes_state *s)
{
    uint8_t *r = s->cart.regs;
    uint16_t *count = s->cart.counters;
    switch (m->info.mapper) {
    case 25: {
        /* PREG, CREG the low 8 bits of the CHR banks, CRGH the high bits (zero here), CMDR the $9002 register (bit 1
         * PRG swap), CMDI, MIRR (0 vertical, 1 horizontal, 2/3 one-screen), BIGB an OR on the PRG banks (0 or $20:
         * no effect on the VRC4's 256 KiB), IRQC/IRQL/IRQA the counter, latch and control */
        const uint8_t *p = get(ps, SEC_CART, "PREG", 2), *c = get(ps, SEC_CART, "CREG", 8);
        const uint8_t *hi = get(ps, SEC_CART, "CRGH", 16), *ic = get(ps, SEC_CART, "IRQC", 2);
        for (int i = 0; hi && i < 16; i++)
            ranged(ps, hi[i], 0, "CRGH");
        r[3] = u8(ps, SEC_CART, "CMDR") & 3u;
        (void)u8(ps, SEC_CART, "CMDI");
        r[2] = (uint8_t)ranged(ps, u8(ps, SEC_CART, "MIRR"), 3, "MIRR");
        unsigned bigb = u8(ps, SEC_CART, "BIGB");
        if (bigb != 0 && bigb != 0x20)
            ranged(ps, bigb, 0, "BIGB");
        (void)get_opt(ps, SEC_CART, "MAK", 1);
        r[4] = u8(ps, SEC_CART, "IRQL");
        ranged(ps, u8(ps, SEC_CART, "IRQA"), 0, "IRQA");
        if (ic)
            r[6] = ic[0];
        count[0] = 341;
        if (p) {
            r[0] = p[0] & 0x1Fu;
            r[1] = p[1] & 0x1Fu;
        }
        for (int i = 0; c && i < 8; i++) {
            r[8 + i] = c[i] & 0x0Fu;
            r[16 + i] = (uint8_t)(c[i] >> 4);
        }
        return 1;
    }
    case 67: {
        /* PREG the 16 KiB bank, STOG the $C800 toggle, CREG the 2 KiB banks, MIRR (as $E800), IRQA ($D800 bit 4),
         * IRQC the counter, IRQL unused */
        const uint8_t *c = get(ps, SEC_CART, "CREG", 4), *ic = get(ps, SEC_CART, "IRQC", 2);
        r[5] = u8(ps, SEC_CART, "PREG") & 0x0Fu;
        r[7] = (uint8_t)ranged(ps, u8(ps, SEC_CART, "STOG"), 1, "STOG");
        r[4] = (uint8_t)ranged(ps, u8(ps, SEC_CART, "MIRR"), 3, "MIRR");
        ranged(ps, u8(ps, SEC_CART, "IRQA"), 0, "IRQA");
        (void)get(ps, SEC_CART, "IRQL", 2);
        for (int i = 0; c && i < 4; i++)
            r[i] = c[i] & 0x3Fu;
        if (ic)
            count[0] = le16(ic);
        return 1;
    }
    case 69: {
        /* CMDR the command, PREG the banks of commands 9, A, B and 8, CREG commands 0-7, MIRR command C, IRQA command
         * D (bit 7 counting), IRQC the counter (32 bits); SCMD/SREG the 5B's sound (not emulated) */
        const uint8_t *p = get(ps, SEC_CART, "PREG", 4), *c = get(ps, SEC_CART, "CREG", 8);
        const uint8_t *ic = get(ps, SEC_CART, "IRQC", 4);
        r[14] = u8(ps, SEC_CART, "CMDR") & 0x0Fu;
        r[12] = (uint8_t)ranged(ps, u8(ps, SEC_CART, "MIRR"), 3, "MIRR");
        unsigned a = u8(ps, SEC_CART, "IRQA");
        ranged(ps, a & 0x80u, 0, "IRQA");
        r[13] = (uint8_t)(a & 0x01u);
        skip_all(ps, "SCMD");
        skip_all(ps, "SREG");
        if (p) {
            for (int i = 0; i < 3; i++)
                r[9 + i] = p[i] & 0x3Fu;
            r[8] = p[3];
        }
        if (c)
            memcpy(r, c, 8);
        if (ic)
            count[0] = le16(ic);
        return 1;
    }
    case 65: {
        /* PREG the banks at $8000/$A000/$C000 (FCEUmm keeps a $C000 register, power-on $FE: the second-last bank, our
         * layout 0), CREG, MIRR (FCEUmm's: 0 horizontal, 1 vertical), IRQA ($9003 bit 7), IRQC/IRQL counter and
         * reload value */
        const uint8_t *p = get(ps, SEC_CART, "PREG", 3), *c = get(ps, SEC_CART, "CREG", 8);
        const uint8_t *ic = get(ps, SEC_CART, "IRQC", 2), *il = get(ps, SEC_CART, "IRQL", 2);
        r[3] = ranged(ps, u8(ps, SEC_CART, "MIRR"), 1, "MIRR") ? 0x00u : 0x80u;
        ranged(ps, u8(ps, SEC_CART, "IRQA"), 0, "IRQA");
        size_t banks = m->prg_size / 8192u;
        if (p) {
            if (banks == 0 || (p[2] % banks) != banks - 2u)
                ranged(ps, p[2], 0, "PREG"); /* a $C000 bank our H3001 cannot show */
            r[0] = p[0] & 0x3Fu;
            r[1] = p[1] & 0x3Fu;
        }
        if (c)
            memcpy(r + 8, c, 8);
        if (ic)
            count[0] = le16(ic);
        if (il) {
            r[5] = il[1];
            r[6] = il[0];
        }
        return 1;
    }
    case 18: {
        /* PREG the four banks (the last $FF), CREG, MIRR (0 horizontal, 1 vertical, 2/3 one-screen A), IRQA, IRQC/IRQL
         * counter and reload (32 bits); FCEUmm keeps the PRG-RAM always on: enabled and writable here */
        const uint8_t *p = get(ps, SEC_CART, "PREG", 4), *c = get(ps, SEC_CART, "CREG", 8);
        const uint8_t *ic = get(ps, SEC_CART, "IRQC", 4), *il = get(ps, SEC_CART, "IRQL", 4);
        unsigned mirr = u8(ps, SEC_CART, "MIRR") & 3u;
        r[4] = (uint8_t)((mirr & 2u) ? 2u : mirr);
        ranged(ps, u8(ps, SEC_CART, "IRQA"), 0, "IRQA");
        r[3] = 3;
        if (p)
            memcpy(r, p, 3);
        if (c)
            memcpy(r + 8, c, 8);
        if (ic)
            count[0] = le16(ic);
        if (il)
            count[1] = le16(il);
        return 1;
    }
    case 19:
        read_namco163(ps, m, s);
        return 1;
    default:
        return 0;
    }
}

static void read_mapper(parsed *ps, const rg__nes_machine *m, rg__nes_state *s)
{
    uint8_t *r = s->cart.regs;
    switch (m->info.mapper) {
    case 0:
        break;
    case 2: case 3: case 7: case 11: case 66:
        /* FCEUmm's data-latch boards: LATC the latch, BUSC whether bus conflicts are emulated */
        r[0] = u8(ps, SEC_CART, "LATC");
        (void)u8(ps, SEC_CART, "BUSC");
        break;
    case 1: {
        const uint8_t *dreg = get(ps, SEC_CART, "DREG", 4);
        (void)get(ps, SEC_CART, "LRST", 8);
        unsigned bits = ranged(ps, u8(ps, SEC_CART, "BFRS"), 4, "BFRS");
        unsigned buf = u8(ps, SEC_CART, "BFFR");
        if (buf >> bits)
            fail(ps, "nes: FCEUmm state: entry %s is out of range (%u)", "BFFR", buf);
        r[0] = (uint8_t)buf;
        r[1] = (uint8_t)bits;
        for (int i = 0; dreg && i < 4; i++)
            r[2 + i] = (uint8_t)ranged(ps, dreg[i], 0x1F, "DREG");
        s->cart.last_write = 0;
        break;
    }
    case 4: case 118: {
        const uint8_t *regs = get(ps, SEC_CART, "REGS", 8);
        if (m->info.mapper == 118)
            (void)get_opt(ps, SEC_CART, "PPUC", 1); /* FCEUmm's last CHR slot on the PPU bus (its TxSROM mirroring) */
        if (regs)
            memcpy(r, regs, 8);
        r[8] = u8(ps, SEC_CART, "CMD");
        r[9] = u8(ps, SEC_CART, "A000") & 1u;
        r[10] = u8(ps, SEC_CART, "A001");
        r[11] = u8(ps, SEC_CART, "IRQL");
        r[12] = u8(ps, SEC_CART, "IRQC");
        r[13] = (uint8_t)ranged(ps, u8(ps, SEC_CART, "IRQR"), 1, "IRQR");
        r[14] = u8(ps, SEC_CART, "IRQA") ? 1u : 0u;
        r[15] = 0; /* A12 low after line 239's last background fetches */
        s->cart.a12_dot = 0;
        (void)get_opt(ps, SEC_CART, "KTEX", 1);
        if (m->info.mirroring == 2)
            r[9] = 0;
        break;
    }
    default:
        if (read_more_mappers(ps, m, s) || read_clocked_mappers(ps, m, s))
            break;
        fail(ps, "nes: FCEUmm state: %s %u is not converted", "the cartridge entries of mapper", m->info.mapper);
        return;
    }
    read_cart_ram(ps, m, s);
    for (size_t i = 0; i < ps->n && !ps->failed; i++) {
        const entry *e = &ps->e[i];
        if (e->section == SEC_CART && !e->used) {
            char name[5];
            for (int k = 0; k < 4; k++)
                name[k] = e->name[k] >= 0x20 && e->name[k] < 0x7F ? e->name[k] : '?';
            name[4] = 0;
            fail(ps, "nes: FCEUmm state: the cartridge entry %s is not one mapper %u has", name, m->info.mapper);
        }
    }
}

int rg__nes_fceumm_sniff(const void *src, size_t len)
{
    return src && len >= 4 && memcmp(src, "FCS", 3) == 0;
}

int rg__nes_fceumm_read(const rg__nes_machine *m, const rg__nes_state *base, const void *src, size_t len,
                        rg__nes_state *out)
{
    parsed *ps = calloc(1, sizeof *ps);
    if (!ps)
        return rg__error(RG_ENOMEM, "out of memory reading an FCEUmm state");
    *out = *base;
    if (parse(ps, src, len)) {
        read_cpu(ps, out);
        /* the CPU's overshoot past the frame's end: X.count (16 per dot, at most an instruction and an interrupt) */
        uint32_t count = u32(ps, SEC_TIMING, "ICou");
        (void)u32(ps, SEC_TIMING, "ICoa");
        unsigned over = 0;
        if (!ps->failed) {
            int32_t c = count <= INT32_MAX ? (int32_t)count : -(int32_t)(~count) - 1;
            if (c > 0 || c < -48 * 16 || (-c) % 16)
                fail(ps, "nes: FCEUmm state: entry %s is out of range (%u)", "ICou", (unsigned)count);
            else
                over = (unsigned)(-c / 16);
        }
        out->frame = (uint32_t)(out->cycles / 29781u);
        read_ppu(ps, out, over);
        read_pads(ps, out);
        read_apu(ps, out);
        read_mapper(ps, m, out);
        out->cart.clock_cycle = out->cycles; /* a clocked counter has counted up to the state's cycle */
    }
    int rc = ps->failed ? RG_ESTATE : RG_OK;
    free(ps);
    return rc;
}

int rg__nes_fceumm_load(rg__nes_machine *m, const void *src, size_t len)
{
    rg__nes_machine *fresh = malloc(sizeof *fresh);
    rg__nes_state *st = malloc(sizeof *st);
    if (!fresh || !st) {
        free(fresh);
        free(st);
        return rg__error(RG_ENOMEM, "out of memory loading an FCEUmm state");
    }
    /* What FCEUmm does not save comes from this cartridge's machine one frame after power-on (past whatever only
     * the first frame after power-on does), with the memories as power-on left them. */
    *fresh = *m;
    fresh->video = 0;
    fresh->audio = 0;
    fresh->abuf = NULL;
    fresh->acap = fresh->alen = 0;
    fresh->buttons[0] = fresh->buttons[1] = 0;
    rg__nes_power_on(fresh);
    memcpy(st, &fresh->st, sizeof *st);
    rg__nes_run_frame(fresh);
    memcpy(fresh->st.ram, st->ram, sizeof st->ram);
    memcpy(&fresh->st.cart.prg_ram, &st->cart.prg_ram, sizeof st->cart.prg_ram);
    memcpy(&fresh->st.cart.chr_ram, &st->cart.chr_ram, sizeof st->cart.chr_ram);
    memcpy(&fresh->st.cart.vram, &st->cart.vram, sizeof st->cart.vram);
    fresh->st.cart.last_write = 0;
    fresh->st.cart.a12_dot = 0;
    int rc = rg__nes_fceumm_read(m, &fresh->st, src, len, st);
    if (rc == RG_OK)
        rc = rg__nes_state_check(st, m);
    if (rc == RG_OK) {
        m->st = *st;
        rg__nes_cart_sync(m);
        m->ppu_sync_at = 0;
        m->apu_sync_at = 0;
        rg__nes_ppu_sync(m);
        rg__nes_apu_run(m, m->st.cycles);
        /* FCEUmm's frame ends at line 240, ours at the vblank: run the post-render line, unseen and unheard */
        uint8_t video = m->video, audio = m->audio, b0 = m->buttons[0], b1 = m->buttons[1];
        m->video = m->audio = 0;
        m->buttons[0] = m->buttons[1] = 0;
        rg__nes_run_frame(m);
        m->st.frame--;
        m->video = video;
        m->audio = audio;
        m->buttons[0] = b0;
        m->buttons[1] = b1;
        m->frame_done = 0;
    }
    free(fresh);
    free(st);
    return rc;
}
