/* The Genesis VDP's ports (docs/genesis.md): register writes, the two-word command (address and code), the data
 * port for VRAM / CRAM / VSRAM with auto-increment, DMA (68000 -> VDP, fill, VRAM copy; done at once, taking no
 * time), the status register and the H/V counter. Rendering is genesis_render.c. */
#include "cores/genesis/genesis.h"

/* Master clocks since the frame's start at the 68000's current instruction (Genesis Plus GX's time for the VDP's
 * ports: its 68000 counts an instruction's clocks after running it). */
static uint64_t frame_pos(const rg__gen_machine *m)
{
    uint64_t now = m->insn_mclk + m->freeze_add, base = rg__gen_frame_base(&m->st);
    return now > base ? now - base : 0;
}

/* The H counter at each master clock of a line (the line starting where Genesis Plus GX starts it). H32: one step
 * every 20 clocks from $85, $93 followed by $E9. H40: $A5-$B5 16 clocks each, $B6 and $E4 8, $E5 16, then the
 * irregular steps of the horizontal sync ($E6-$F7, below), and 16 clocks each from $F8 to $A4. */
static const uint8_t hsync40[18] = {17, 20, 20, 20, 18, 20, 20, 20, 19, 19, 20, 20, 20, 18, 20, 20, 20, 17};

static unsigned hcount(int wide, unsigned pos)
{
    if (!wide) {
        unsigned n = (pos / 20u + 0x85u) % 171u;
        return n <= 0x93u ? n : n + (0xE9u - 0x94u);
    }
    if (pos < 272u)
        return 0xA5u + pos / 16u;
    if (pos < 280u)
        return 0xB6u;
    if (pos < 288u)
        return 0xE4u;
    if (pos < 304u)
        return 0xE5u;
    unsigned t = 304u;
    for (unsigned i = 0; i < sizeof hsync40; i++) {
        if (pos < t + hsync40[i])
            return 0xE6u + i;
        t += hsync40[i];
    }
    return (0xF8u + (pos - t) / 16u) & 0xFFu;
}

static int h40(const rg__gen_vdp *v)
{
    return (v->reg[12] & 1u) != 0;
}

/* The write FIFO during the picture, as Genesis Plus GX models it: the VDP takes a word at each access slot of a
 * line (H32 16 and H40 18 slots, at these master clocks into the line; a VRAM word takes two), a fifth write waits
 * for the next slot (the 68000 stalls), and the status register's FIFO bits follow. */
static const uint16_t fifo_at32[20] = {230, 510, 810, 970, 1130, 1450, 1610, 1770, 2090, 2250, 2410, 2730, 2890,
                                       3050, 3350, 3370, 3420 + 230, 3420 + 510, 3420 + 810, 3420 + 970};
static const uint16_t fifo_at40[22] = {352, 820, 948, 1076, 1332, 1460, 1588, 1844, 1972, 2100, 2356, 2484, 2612,
                                       2868, 2996, 3124, 3364, 3380, 3420 + 352, 3420 + 820, 3420 + 948,
                                       3420 + 1076};

static void fifo_update(rg__gen_machine *m, uint64_t t)
{
    rg__gen_vdp *v = &m->st.vdp;
    const uint16_t *at = h40(v) ? fifo_at40 : fifo_at32;
    unsigned n_at = h40(v) ? 22u : 20u, per_line = h40(v) ? 18u : 16u;
    unsigned lines = rg__gen_lines(&m->st), idx = (v->line + lines - v->view_h) % lines;
    uint64_t start = (uint64_t)idx * RG__GEN_LINE_MCLK;
    uint32_t total = per_line * ((v->line + 1u) % lines);
    unsigned in_line = 0;
    uint64_t c = t > start ? t - start : 0;
    while (in_line < n_at - 1u && at[in_line] <= c)
        in_line++;
    int32_t done = ((int32_t)(total + in_line) - (int32_t)v->fifo_slots) >> v->fifo_byte;
    if (done > 0) {
        if ((int32_t)v->fifo_cnt <= done) {
            v->fifo_cnt = 0;
            v->fifo_slots = total + in_line;
        } else {
            v->fifo_cnt = (uint8_t)(v->fifo_cnt - done);
            v->fifo_slots += (uint32_t)done << v->fifo_byte;
        }
    }
    int k = (int)v->fifo_slots - (int)total + v->fifo_byte;
    if (k < 0)
        k = 0;
    if (k > (int)n_at - 1)
        k = (int)n_at - 1;
    v->fifo_next = (uint32_t)(start + at[k]);
}

/* A data-port write during the picture (display on, outside the blank) goes through the FIFO. */
static void fifo_write(rg__gen_machine *m)
{
    rg__gen_vdp *v = &m->st.vdp;
    if ((v->line >= v->view_h && v->line < rg__gen_lines(&m->st) - 1u) || !(v->reg[1] & 0x40u))
        return;
    uint64_t t = frame_pos(m);
    fifo_update(m, t);
    if (v->fifo_cnt < 4u) {
        v->fifo_cnt++;
    } else { /* the 68000 waits for the next slot */
        if (v->fifo_next > t)
            m->freeze_add += v->fifo_next - t;
        v->fifo_slots += v->fifo_byte + 1u;
    }
}

void rg__gen_vdp_view(rg__gen_vdp *v)
{
    v->view_h = !(v->reg[1] & 4u) ? 192u : (v->reg[1] & 8u) ? 240u : 224u;
    v->view_w = h40(v) ? 320u : 256u;
}

/* In the vertical blank: from the frame's first line to line 260 (line 261 is the blank's last but reads as
 * active, as in Genesis Plus GX). */
static int in_vblank(const rg__gen_state *s)
{
    return s->vdp.line >= s->vdp.view_h && s->vdp.line < rg__gen_lines(s) - 1u;
}

unsigned rg__gen_vdp_ipl(const rg__gen_vdp *v)
{
    if (v->vint && (v->reg[1] & 0x20u))
        return 6;
    if (v->hint && (v->reg[0] & 0x10u))
        return 4;
    return 0;
}

/* The sprite table's place in VRAM as Genesis Plus GX tracks it for its copy (vdp.sat): register 5 above bit 9 (10
 * in H40); a VRAM write there also goes to the copy (GPGX takes register 12's width at once for this). */
static inline unsigned sat_base_mask(const rg__gen_vdp *v)
{
    return (v->reg[12] & 1u) ? 0xFC00u : 0xFE00u;
}

static inline void vram_put(rg__gen_vdp *v, unsigned a, uint8_t b)
{
    unsigned bm = sat_base_mask(v);
    v->vram[a] = b;
    if ((a & bm) == (((unsigned)v->reg[5] << 9) & bm))
        v->sat[a & ~bm & 0x3FFu] = b;
}

static void vram_write_word(rg__gen_vdp *v, uint16_t addr, uint16_t val)
{
    if (addr & 1u) /* an odd address writes the bytes swapped into the even word */
        val = (uint16_t)(val << 8 | val >> 8);
    unsigned a = addr & 0xFFFEu, bm = sat_base_mask(v);
    v->vram[a] = (uint8_t)(val >> 8);
    v->vram[a | 1u] = (uint8_t)val;
    if ((a & bm) == (((unsigned)v->reg[5] << 9) & bm)) {
        v->sat[a & ~bm & 0x3FFu] = (uint8_t)(val >> 8);
        v->sat[(a | 1u) & ~bm & 0x3FFu] = (uint8_t)val;
    }
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

/* A word into the write FIFO's ring (each data-port write and each word of a 68000-to-VDP transfer). A read of CRAM
 * or VSRAM takes the bits its RAM lacks from the entry after the last written (the oldest), as a console does and
 * Genesis Plus GX has it; so does a CRAM or VSRAM fill's data. */
static inline void fifo_push(rg__gen_vdp *v, uint16_t w)
{
    v->fifo[v->fifo_idx] = w;
    v->fifo_idx = (uint8_t)((v->fifo_idx + 1u) & 3u);
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
        fifo_push(v, w);
        port_write(v, w);
        lo = (lo + 1u) & 0xFFFFu;
    }
    dma_done(v, lo);
}

/* DMA timing, as Genesis Plus GX times it: a transfer moves bytes a line at a rate by period and width, 166 / 204
 * (H32 / H40) in the vertical blank or with the display off, 16 / 18 during the picture; 68000-to-VRAM transfers
 * and copies half as many units (words, byte pairs), 68000-to-CRAM/VSRAM and fills that many. From its start the
 * transfer runs to the end of its line (in the blank: to the blank's end, the start of line 261), then on from the
 * start of each following line (the blank counted from the frame's start as one part). Returns the master clock it
 * ends at; *first: the clocks of its first part, *parts: how many parts. The data itself is moved at once. */
static const uint16_t dma_rate[2][2] = {{16, 18}, {166, 204}};

static uint64_t dma_time(const rg__gen_machine *m, unsigned len, unsigned half, uint64_t *first, unsigned *parts)
{
    const rg__gen_vdp *v = &m->st.vdp;
    uint64_t base = rg__gen_frame_base(&m->st), t = frame_pos(m), frame_mclk = rg__gen_frame_mclk(&m->st);
    while (t >= frame_mclk) {
        t -= frame_mclk;
        base += frame_mclk;
    }
    uint64_t vb_end = (uint64_t)(rg__gen_lines(&m->st) - 1u - v->view_h) * RG__GEN_LINE_MCLK;
    for (unsigned n = 1;; n++) {
        int vblank = t < vb_end;
        unsigned rate = dma_rate[vblank || !(v->reg[1] & 0x40u)][h40(v)] >> half;
        uint64_t end = vblank ? vb_end : (t / RG__GEN_LINE_MCLK + 1u) * RG__GEN_LINE_MCLK;
        uint64_t dc = end - t, units = dc * rate / RG__GEN_LINE_MCLK;
        if (len < units) {
            units = len;
            dc = units * RG__GEN_LINE_MCLK / rate;
        }
        len -= (unsigned)units;
        if (n == 1)
            *first = dc;
        if (!len) {
            *parts = n;
            return base + t + dc;
        }
        t = end;
        if (t >= frame_mclk) {
            t -= frame_mclk;
            base += frame_mclk;
        }
    }
}

/* A fill or copy runs while the 68000 goes on: status bit 1 (DMA busy) reads set until it ends. */
static void dma_busy(rg__gen_machine *m, unsigned n, unsigned half)
{
    uint64_t first;
    unsigned parts;
    m->st.dma_end = dma_time(m, n, half, &first, &parts);
}

/* A 68000-to-VDP transfer freezes the 68000: one part, its clocks after the instruction that started it; more, until
 * the transfer's end. */
static void dma_freeze(rg__gen_machine *m, unsigned n, unsigned half)
{
    uint64_t first;
    unsigned parts;
    uint64_t end = dma_time(m, n, half, &first, &parts);
    if (parts == 1)
        m->freeze_add = first;
    else
        m->freeze_to = end;
}

/* VRAM copy: bytes from the source (registers 21-22, a byte address) to the address register. */
static void dma_copy(rg__gen_vdp *v)
{
    unsigned n = dma_length(v);
    unsigned src = v->reg[21] | (unsigned)v->reg[22] << 8;
    for (unsigned i = 0; i < n; i++) {
        vram_put(v, v->addr, v->vram[src]);
        src = (src + 1u) & 0xFFFFu;
        v->addr = (uint16_t)(v->addr + v->reg[15]);
    }
    dma_done(v, src);
}

/* VRAM fill, after the data-port write that started it (which is done as a normal write first): the high byte of
 * the data to the address with bit 0 inverted, length times; CRAM and VSRAM get the whole word of the FIFO's next
 * entry (the oldest of its four, not the word just written), as a console and Genesis Plus GX do. */
static void dma_fill(rg__gen_vdp *v, uint16_t val)
{
    port_write(v, val);
    unsigned n = dma_length(v);
    unsigned src = v->reg[21] | (unsigned)v->reg[22] << 8;
    uint16_t word = v->fifo[v->fifo_idx];
    for (unsigned i = 0; i < n; i++) {
        if ((v->code & 0x0Fu) == 1) {
            vram_put(v, v->addr ^ 1u, (uint8_t)(val >> 8));
            v->addr = (uint16_t)(v->addr + v->reg[15]);
        } else {
            port_write(v, word);
        }
    }
    v->fill = 0;
    dma_done(v, (src + n) & 0xFFFFu);
}

/* A register write, with what Genesis Plus GX does on the mode bits: a change of the height (register 1 bits 2-3)
 * or interlace (register 12 bits 1-2) takes effect at the next frame; a change of the width (register 12 bit 0)
 * at once in the blank or early in line 0 (redrawn), else at the next frame; the HV counter is latched (register
 * 0 bit 1, mode 5) or freed when mode 5 starts. */
static void reg_write(rg__gen_machine *m, unsigned r, uint8_t d)
{
    rg__gen_vdp *v = &m->st.vdp;
    unsigned changed = (unsigned)(d ^ v->reg[r]);
    if (r == 0 && (changed & 2u) && (v->reg[1] & 4u)) {
        v->hv_latched = (uint8_t)((d >> 1) & 1u);
        if (v->hv_latched)
            v->hv_latch = rg__gen_vdp_hv(m);
    }
    v->reg[r] = d;
    if (r == 5) {
        /* the table moved early in a line of the picture (up to 860 master clocks in, GPGX's window): the next
         * line's sprites are read again from the new place, as Genesis Plus GX does */
        if (v->line + 1u < v->view_h && (v->reg[1] & 0x40u) && frame_pos(m) % RG__GEN_LINE_MCLK <= 860u)
            rg__gen_sprite_parse(m, v->line + 1u);
    } else if (r == 1) {
        if (changed & 4u) {
            v->view_changed = 1;
            /* mode 5 frees the counter (or latches it with register 0 bit 1); mode 4 latches it */
            v->hv_latched = 0;
            if (!(d & 4u) || (v->reg[0] & 2u)) {
                v->hv_latch = rg__gen_vdp_hv(m);
                v->hv_latched = 1;
            }
        } else if ((changed & 8u) && (d & 4u)) {
            v->view_changed = 1;
        }
    } else if (r == 12) {
        if (changed & 6u)
            v->view_changed = 1;
        if (changed & 1u) {
            if (v->line >= v->view_h) {
                v->view_w = h40(v) ? 320u : 256u;
            } else if (v->line == 0 && frame_pos(m) % RG__GEN_LINE_MCLK <= 860u) {
                v->view_w = h40(v) ? 320u : 256u;
                if (m->video)
                    rg__gen_render_line(m, 0);
            } else {
                v->view_changed = 1;
            }
        }
    }
}

void rg__gen_vdp_ctrl_write(rg__gen_machine *m, uint16_t val)
{
    rg__gen_vdp *v = &m->st.vdp;
    if (!v->pending) {
        if ((val & 0xC000u) == 0x8000u) {
            unsigned r = (val >> 8) & 0x1Fu;
            unsigned before = rg__gen_vdp_ipl(v);
            if (r < 24)
                reg_write(m, r, (uint8_t)val);
            unsigned now = rg__gen_vdp_ipl(v);
            /* an interrupt enabled while pending waits for one more instruction (not after a MOVE.L, which may be
             * in the middle of its two writes), as Genesis Plus GX has it */
            if (now > before && (m->st.cpu.ir & 0xF000u) != 0x2000u)
                m->ipl_delay = 2;
            else if (!m->ipl_delay)
                m->st.cpu.ipl = (uint8_t)now;
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
    v->fifo_byte = (uint8_t)((v->code & 0x0Fu) <= 2u);
    if ((v->code & 0x20u) && (v->reg[1] & 0x10u)) {
        switch (v->reg[23] >> 6) {
        case 2:
            v->fill = 1;
            break;
        case 3:
            dma_busy(m, dma_length(v), 1);
            dma_copy(v);
            break;
        default: {
            unsigned n = dma_length(v);
            dma_68k(m);
            dma_freeze(m, n, (v->code & 6u) ? 0u : 1u);
            break;
        }
        }
    }
}

void rg__gen_vdp_data_write(rg__gen_machine *m, uint16_t val)
{
    rg__gen_vdp *v = &m->st.vdp;
    v->pending = 0;
    fifo_write(m);
    fifo_push(v, val);
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
    case 4: { /* VSRAM: 11 bits, the rest from the FIFO's next entry */
        unsigned i = (v->addr >> 1) & 0x3Fu;
        r = (uint16_t)(((i < 40 ? v->vsram[i] : v->vsram[0]) & 0x7FFu) | (v->fifo[v->fifo_idx] & 0xF800u));
        break;
    }
    case 8: /* CRAM: bits 1-3, 5-7, 9-11, the rest from the FIFO's next entry */
        r = (uint16_t)((v->cram[(v->addr >> 1) & 0x3Fu] & 0x0EEEu) | (v->fifo[v->fifo_idx] & ~0x0EEEu));
        break;
    case 12: /* the undocumented 8-bit VRAM read: the byte at the address with bit 0 inverted, the rest as above */
        r = (uint16_t)(v->vram[v->addr ^ 1u] | (v->fifo[v->fifo_idx] & 0xFF00u));
        break;
    default:
        break;
    }
    v->addr = (uint16_t)(v->addr + v->reg[15]);
    return r;
}

/* The status register at Genesis Plus GX's moment of a status read (4 68000 clocks into the instruction). The top
 * six bits are open bus: the prefetched word. */
uint16_t rg__gen_vdp_status(rg__gen_machine *m)
{
    rg__gen_vdp *v = &m->st.vdp;
    uint64_t fpos = frame_pos(m) + 28u;
    unsigned pos = (unsigned)(fpos % RG__GEN_LINE_MCLK);
    int vblank = in_vblank(&m->st) || !(v->reg[1] & 0x40u);
    int hblank = pos < 588u;
    int busy = m->insn_mclk + 28u < m->st.dma_end;
    /* the V interrupt flag reads set from its moment in the first line, before the interrupt is raised */
    int vflag = v->vflag || (v->line == v->view_h && fpos >= 788u && fpos < RG__GEN_LINE_MCLK && !v->vint_skip &&
                             !m->st.z80_int);
    if (v->fifo_cnt)
        fifo_update(m, fpos);
    unsigned fifo = v->fifo_cnt == 0 ? 0x200u : v->fifo_cnt >= 4u ? 0x100u : 0u; /* empty, full */
    uint16_t s = (uint16_t)((m->st.cpu.irc & 0xFC00u) | fifo | (unsigned)busy << 1 |
                            (unsigned)vflag << 7 | (unsigned)v->sprite_ovf << 6 | (unsigned)v->sprite_col << 5 |
                            (unsigned)v->odd << 4 | (unsigned)vblank << 3 | (unsigned)hblank << 2 |
                            ((m->st.region >> 6) & 1u)); /* bit 0: PAL */
    v->pending = 0;
    v->sprite_ovf = v->sprite_col = 0;
    return s;
}

/* The HV counter: H from the position in the line (hcount), V the line, the next one once the 68000 has run past
 * the line's end, counting on to the mode's top ($EA for 224 lines, $106 in V30, $DA in mode 4) and then from
 * below 0 (as 262 lines earlier). Latched: the value taken then (in mode 4 only H is latched). */
uint16_t rg__gen_vdp_hv(rg__gen_machine *m)
{
    rg__gen_vdp *v = &m->st.vdp;
    if (v->hv_latched && (v->reg[1] & 4u))
        return v->hv_latch;
    uint64_t fpos = frame_pos(m);
    unsigned hc = v->hv_latched ? (v->hv_latch & 0xFFu) : hcount(h40(v), (unsigned)(fpos % RG__GEN_LINE_MCLK));
    unsigned lines = rg__gen_lines(&m->st), idx = (v->line + lines - v->view_h) % lines;
    int vc = (int)v->line;
    if (fpos >= (uint64_t)(idx + 1u) * RG__GEN_LINE_MCLK)
        vc = (vc + 1) % (int)lines;
    int pal = (m->st.region >> 6) & 1;
    int vmax = !(v->reg[1] & 4u) ? (pal ? 0xF2 : 0xDA) : (v->reg[1] & 8u) ? (pal ? 0x10A : 0x106) : (pal ? 0x102 : 0xEA);
    if (vc > vmax)
        vc -= (int)lines;
    if (v->lflags & RG__GEN_LF_INTERLACE) { /* GPGX: doubled in double resolution, bit 0 replaced by bit 8 */
        unsigned u = (unsigned)vc << ((v->lflags & RG__GEN_LF_IM2) ? 1 : 0);
        vc = (int)((u & ~1u) | ((u >> 8) & 1u));
    }
    return (uint16_t)(((unsigned)vc & 0xFFu) << 8 | (hc & 0xFFu));
}
