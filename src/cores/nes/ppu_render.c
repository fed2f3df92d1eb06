/* Rendering: the fetch pattern of a line with rendering on, sprite evaluation, sprite-0 hit and the pixels.
 *
 * A line is processed in segments [from, to) of dots (the machine runs the PPU up to each CPU access of its
 * registers), in whole 8-dot tile groups where a segment allows and dot by dot where it does not, with the same
 * result either way. Per line (nesdev's frame timing, all facts of the 2C02):
 *   dots 1-256    a tile per 8 dots: nametable byte, attribute byte, pattern low, pattern high, coarse X + 1; a pixel
 *                 per dot on lines 0-239; fine Y + 1 at 256. Sprite evaluation for the next line over dots 65-256
 *                 (done at once at dot 65; the overflow flag is set at the dot the hardware's walk reaches it).
 *   dot 257       horizontal bits of v from t; 257-320: the 8 sprite slots' pattern fetches (unused slots fetch tile
 *                 $FF), OAMADDR held at 0; on the pre-render line 280-304 copy the vertical bits of v from t.
 *   dots 321-336  the next line's first two tiles.
 * Background pixels live in a 64-bit shifter of 16 nibbles (palette << 2 | pattern), shifted one nibble per dot.
 * Frames nobody observes (m->video == 0) draw nothing: a line with no sprite-0 hit to find and no mapper watching
 * moves v in O(1) over dots 1-256, sprite evaluation shrinks to sprite 0 once the overflow flag is set, and the
 * fetches of the next line's first two tiles are skipped when that line (up to 238) needs no background pixel. From
 * the last visible line on everything runs in full, so states at a frame's end do not depend on m->video. */
#include "cores/nes/ppu_bus.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Bit k of a pattern byte at bit 4k (the pixels of a row as nibbles, leftmost pixel in the top nibble). */
#define SP(b)                                                                                                          \
    ((uint32_t)((b) & 1) | (uint32_t)((b) >> 1 & 1) << 4 | (uint32_t)((b) >> 2 & 1) << 8 |                            \
     (uint32_t)((b) >> 3 & 1) << 12 | (uint32_t)((b) >> 4 & 1) << 16 | (uint32_t)((b) >> 5 & 1) << 20 |              \
     (uint32_t)((b) >> 6 & 1) << 24 | (uint32_t)((b) >> 7 & 1) << 28)
#define SP4(b) SP(b), SP((b) + 1), SP((b) + 2), SP((b) + 3)
#define SP16(b) SP4(b), SP4((b) + 4), SP4((b) + 8), SP4((b) + 12)
#define SP64(b) SP16(b), SP16((b) + 16), SP16((b) + 32), SP16((b) + 48)
static const uint32_t k_spread[256] = {SP64(0), SP64(64), SP64(128), SP64(192)};

static uint8_t reverse8(uint8_t b)
{
    b = (uint8_t)((b & 0xF0) >> 4 | (b & 0x0F) << 4);
    b = (uint8_t)((b & 0xCC) >> 2 | (b & 0x33) << 2);
    return (uint8_t)((b & 0xAA) >> 1 | (b & 0x55) << 1);
}

/* --- pixels */

/* The picture's value of a palette value | emphasis << 6: itself, or its entry of m->rgb (nes.h). */
static inline uint16_t out_value(const rg__nes_machine *m, unsigned v)
{
    return m->rgb ? m->rgb[v] : (uint16_t)v;
}

/* Pixel x of the line from background nibble `nib` and the sprite line; sets the sprite-0 hit flag. */
static inline void put(const rg__nes_machine *m, rg__nes_ppu *p, uint16_t *row, unsigned x, unsigned nib)
{
    unsigned mask = p->mask;
    unsigned bg = nib;
    if (!(mask & 0x08) || (x < 8 && !(mask & 0x02)))
        bg = 0;
    unsigned c = (bg & 3) ? bg : 0;
    unsigned s = p->spr_line[x];
    if ((s & 3) && (mask & 0x10) && (x >= 8 || (mask & 0x04))) {
        if (bg & 3) {
            if ((s & 0x20) && x != 255)
                p->status |= 0x40;
            if (!(s & 0x10))
                c = 0x10 | (s & 15);
        } else {
            c = 0x10 | (s & 15);
        }
    }
    if (row)
        row[x] = out_value(m, (p->palette[c] & ((mask & 1) ? 0x30u : 0x3Fu)) | (mask >> 5) << 6);
}

/* The output value of each palette RAM entry under the current greyscale and emphasis, for a run of pixels
 * (col[0-31]), and of each background nibble (col[32-47]: pattern 0 shows the backdrop). */
static const uint16_t *colors(rg__nes_machine *m, const rg__nes_ppu *p)
{
    uint8_t key = (uint8_t)(p->mask & 0xE1u); /* greyscale and emphasis */
    if (m->col_ok && m->col_key[32] == key && memcmp(m->col_key, p->palette, 32) == 0)
        return m->col;
    unsigned grey = (p->mask & 1) ? 0x30u : 0x3Fu, emph = (unsigned)(p->mask >> 5) << 6;
    uint16_t *col = m->col;
    for (unsigned i = 0; i < 32; i++)
        col[i] = out_value(m, (p->palette[i] & grey) | emph);
    for (unsigned i = 0; i < 16; i++)
        col[32 + i] = col[(i & 3) ? i : 0];
    memcpy(m->col_key, p->palette, 32);
    m->col_key[32] = key;
    m->col_ok = 1;
    m->bg_pair_ok = 0;
    return col;
}

/* The output values of background nibble pairs (two pixels) for the colours col[32-47] of colors() (kept while
 * those are). */
static const uint16_t (*bg_pairs(rg__nes_machine *m, const uint16_t *col))[2]
{
    if (!m->bg_pair_ok) {
        for (unsigned b = 0; b < 256; b++) {
            m->bg_pair[b][0] = col[32 + (b >> 4)];
            m->bg_pair[b][1] = col[32 + (b & 15)];
        }
        m->bg_pair_ok = 1;
    }
    return (const uint16_t(*)[2])m->bg_pair;
}

/* Eight background pixels (the top 32 bits of sh, leftmost pixel first) at row[0-7]. */
static inline void bg8(uint16_t *row, uint64_t sh, const uint16_t (*pair)[2])
{
    uint32_t w = (uint32_t)(sh >> 32);
    memcpy(row, pair[w >> 24], 4);
    memcpy(row + 2, pair[(w >> 16) & 255u], 4);
    memcpy(row + 4, pair[(w >> 8) & 255u], 4);
    memcpy(row + 6, pair[w & 255u], 4);
}

/* put() with the colours looked up in col. */
static inline void put_col(rg__nes_ppu *p, uint16_t *row, unsigned x, unsigned nib, const uint16_t *col)
{
    unsigned mask = p->mask;
    unsigned bg = nib;
    if (!(mask & 0x08) || (x < 8 && !(mask & 0x02)))
        bg = 0;
    unsigned c = (bg & 3) ? bg : 0;
    unsigned s = p->spr_line[x];
    if ((s & 3) && (mask & 0x10) && (x >= 8 || (mask & 0x04))) {
        if (bg & 3) {
            if ((s & 0x20) && x != 255)
                p->status |= 0x40;
            if (!(s & 0x10))
                c = 0x10 | (s & 15);
        } else {
            c = 0x10 | (s & 15);
        }
    }
    row[x] = col[c];
}

void rg__nes_ppu_blank(rg__nes_machine *m, unsigned line, unsigned from, unsigned to)
{
    rg__nes_ppu *p = &m->st.ppu;
    if (!m->fb)
        return;
    unsigned a = from < 1 ? 1 : from, b = to > 257 ? 257 : to;
    if (a >= b)
        return;
    /* with rendering off the picture is the backdrop, or the palette entry v points at */
    unsigned c = (p->v & 0x3F00) == 0x3F00 ? p->palette[rg__ppu_pal_index(p->v)] : p->palette[0];
    uint16_t val = out_value(m, (c & ((p->mask & 1) ? 0x30u : 0x3Fu)) | (unsigned)(p->mask >> 5) << 6);
    uint16_t *row = m->fb + line * RG__NES_WIDTH;
    for (unsigned d = a; d < b; d++)
        row[d - 1] = val;
}

/* --- background fetches */

/* The dots (of 8) at which the mapper is shown a tile's pattern addresses: the fetches are at 4 and 6, but the CPU
 * sees what the mapper raises 2 dots late, as it sees the NMI output (ppu.c); MMC3's IRQ then comes where
 * mmc3_test_2's 4-scanline_timing and blargg's mmc3_irq_tests measure it. The high byte follows a dot after the low
 * one (same table: only MMC2/MMC4's latches look at it, and they act from the next fetch on). */
#define RG__PPU_WATCH_LO 6u
#define RG__PPU_WATCH_HI 7u

static inline void fetch_nt(const rg__nes_machine *m, rg__nes_ppu *p)
{
    p->nt_latch = rg__ppu_nt(m, 0x2000u | (p->v & 0x0FFFu));
}

static inline void fetch_at(const rg__nes_machine *m, rg__nes_ppu *p)
{
    unsigned v = p->v;
    uint8_t b = rg__ppu_nt(m, 0x23C0u | (v & 0x0C00u) | ((v >> 4) & 0x38u) | ((v >> 2) & 0x07u));
    p->at_latch = (uint8_t)((b >> (((v >> 4) & 4u) | (v & 2u))) & 3u);
    if (m->ppu_exattr)
        p->at_latch = (uint8_t)(m->ppu_exattr[v & 0x3FFu] >> 6);
}

/* A background pattern byte (MMC5's ExRAM mode 1 picks its own bank per tile). */
static inline uint8_t bg_chr(const rg__nes_machine *m, const rg__nes_ppu *p, unsigned a)
{
    return m->ppu_exattr ? rg__ppu_chr_ex(m, p->v, a) : rg__ppu_chr(m, a);
}

static inline unsigned bg_addr(const rg__nes_ppu *p)
{
    return (unsigned)((p->ctrl & 0x10u) << 8) | (unsigned)p->nt_latch << 4 | (unsigned)(p->v >> 12);
}

static inline void reload(rg__nes_ppu *p)
{
    uint32_t tile = k_spread[p->lo_latch] | k_spread[p->hi_latch] << 1 | (uint32_t)p->at_latch * 0x44444444u;
    p->bg_shift = (p->bg_shift & 0xFFFFFFFF00000000ull) | tile;
}

/* One dot of the background (1-256, 321-336): its pixel, the shift, its part of the tile fetch. */
static void bg_dot(rg__nes_machine *m, rg__nes_ppu *p, unsigned d, uint64_t dot0, uint16_t *row, int pixels)
{
    if (pixels && d <= 256)
        put(m, p, row, d - 1, (unsigned)(p->bg_shift >> (60 - 4 * p->x)) & 15u);
    p->bg_shift <<= 4;
    switch ((d - 1) & 7) {
    case 0:
        fetch_nt(m, p);
        break;
    case 2:
        fetch_at(m, p);
        break;
    case 4:
        p->lo_latch = bg_chr(m, p, bg_addr(p));
        break;
    case 6: {
        unsigned a = bg_addr(p);
        if (m->ppu_watch)
            rg__nes_cart_ppu_addr(m, (uint16_t)a, dot0 + d);
        p->hi_latch = bg_chr(m, p, a + 8);
        break;
    }
    case 7:
        if (m->ppu_watch)
            rg__nes_cart_ppu_addr(m, (uint16_t)(bg_addr(p) + 8), dot0 + d);
        p->v = rg__ppu_inc_x(p->v);
        if (d == 256)
            p->v = rg__ppu_inc_y(p->v);
        reload(p);
        break;
    default:
        break;
    }
}

/* No sprite pixel at x0..x0+7 of the line (x0 a multiple of 8). */
static inline int no_sprite8(const rg__nes_ppu *p, unsigned x0)
{
    uint64_t w;
    memcpy(&w, p->spr_line + x0, sizeof w);
    return w == 0;
}

/* Dots d..d+7 (d = 8k + 1) of the background at once. With a picture (row) the colours come from col; without one
 * only the pixels under sprite 0 are looked at (for its hit). */
static inline void bg_group(rg__nes_machine *m, rg__nes_ppu *p, unsigned d, uint64_t dot0, uint16_t *row, int pixels,
                     const uint16_t *col)
{
    if (pixels && d <= 256) {
        unsigned x0 = d - 1;
        uint64_t sh = p->bg_shift << (4 * p->x);
        if (!row) {
            if (x0 + 8 > p->spr0_x && x0 < p->spr0_x + 8u)
                for (unsigned i = 0; i < 8; i++, sh <<= 4)
                    put(m, p, NULL, x0 + i, (unsigned)(sh >> 60));
        } else if ((p->mask & 0x08) && (x0 >= 8 || (p->mask & 0x02)) && (!p->spr_line_used || no_sprite8(p, x0))) {
            /* background alone (no sprite pixel in these 8): pattern 0 shows the backdrop */
            for (unsigned i = 0; i < 8; i++, sh <<= 4)
                row[x0 + i] = col[32 + (unsigned)(sh >> 60)];
        } else {
            for (unsigned i = 0; i < 8; i++, sh <<= 4)
                put_col(p, row, x0 + i, (unsigned)(sh >> 60), col);
        }
    }
    p->bg_shift <<= 32;
    fetch_nt(m, p);
    fetch_at(m, p);
    unsigned a = bg_addr(p);
    p->lo_latch = bg_chr(m, p, a);
    if (m->ppu_watch)
        rg__nes_cart_ppu_addr(m, (uint16_t)a, dot0 + d + RG__PPU_WATCH_LO);
    p->hi_latch = bg_chr(m, p, a + 8);
    if (m->ppu_watch)
        rg__nes_cart_ppu_addr(m, (uint16_t)(a + 8), dot0 + d + RG__PPU_WATCH_HI);
    p->v = rg__ppu_inc_x(p->v);
    if (d + 7 == 256)
        p->v = rg__ppu_inc_y(p->v);
    reload(p);
}

/* --- sprites */

/* Bit n set: sprite n has `line` within its h lines (OAM Y bytes at stride 4). */
#if defined(__SSE2__)
static uint64_t in_range(const uint8_t *oam, unsigned line, unsigned h)
{
    const __m128i low = _mm_set1_epi32(0xFF), l = _mm_set1_epi32((int)line), hh = _mm_set1_epi32((int)h);
    const __m128i neg = _mm_set1_epi32(-1);
    uint64_t bits = 0;
    for (unsigned k = 0; k < 16; k++) {
        __m128i w = _mm_loadu_si128((const __m128i *)(const void *)(oam + 16 * k));
        __m128i d = _mm_sub_epi32(l, _mm_and_si128(w, low)); /* line - Y of 4 sprites (x86: Y is the low byte) */
        __m128i in = _mm_and_si128(_mm_cmpgt_epi32(d, neg), _mm_cmplt_epi32(d, hh));
        bits |= (uint64_t)_mm_movemask_ps(_mm_castsi128_ps(in)) << (4 * k);
    }
    return bits;
}
#else
static uint64_t in_range(const uint8_t *oam, unsigned line, unsigned h)
{
    uint64_t bits = 0;
    for (unsigned i = 0; i < 64; i++)
        bits |= (uint64_t)((unsigned)(line - oam[4 * i]) < h) << i;
    return bits;
}
#endif

#if defined(__GNUC__) && defined(__POPCNT__)
#define POPCOUNT64(x) ((unsigned)__builtin_popcountll(x))
#else
/* without the instruction: bit counts of 2, 4, 8 bits, then the bytes summed (GCC's own fallback is a call) */
static unsigned POPCOUNT64(uint64_t x)
{
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (unsigned)((x * 0x0101010101010101ull) >> 56);
}
#endif
#if defined(__GNUC__)
#define CTZ64(x) ((unsigned)__builtin_ctzll(x))
#else
static unsigned CTZ64(uint64_t x)
{
    unsigned n = 0;
    while (!(x & 1u)) {
        x >>= 1;
        n++;
    }
    return n;
}
#endif

/* Sprite evaluation for the line after `line` (done at dot 65). The first 8 sprites in range go to secondary OAM;
 * past them the hardware's walk looks at OAM[n][m] with m stepping along with n (its known bug), and sets the
 * overflow flag where that byte is in range. Dots: 2 per sprite looked at, 8 per sprite copied. */
static void evaluate(const rg__nes_machine *m, rg__nes_ppu *p, unsigned line, int full)
{
    unsigned h = (p->ctrl & 0x20) ? 16u : 8u;
    p->spr0_next = 0;
    if (line == RG__NES_PPU_PRE_LINE) {
        /* no evaluation on the pre-render line: line 0 has no sprites */
        memset(p->sec_oam, 0xFF, sizeof p->sec_oam);
        p->sec_count = 0;
        return;
    }
    if (!full && !m->ppu_watch && (p->status & 0x20)) {
        /* nobody sees the picture or the fetches and the overflow flag is set: only sprite 0 matters */
        p->sec_count = 0;
        if (line - p->oam[0] < h) {
            memcpy(p->sec_oam, p->oam, 4);
            p->sec_count = 1;
            p->spr0_next = 1;
        }
        return;
    }
    uint64_t bits = in_range(p->oam, line, h);
    if (!full && !m->ppu_watch && POPCOUNT64(bits) < 8) {
        /* nobody sees the picture or the fetches, and the overflow flag is set or cannot be (the hardware's walk
         * starts only after 8 sprites found): only sprite 0 matters */
        p->sec_count = 0;
        if (bits & 1u) {
            memcpy(p->sec_oam, p->oam, 4);
            p->sec_count = 1;
            p->spr0_next = 1;
        }
        return;
    }
    memset(p->sec_oam, 0xFF, sizeof p->sec_oam);
    p->spr0_next = (uint8_t)(bits & 1u);
    unsigned n = 64, found = 0;
    for (; bits && found < 8; bits &= bits - 1) {
        unsigned i = CTZ64(bits);
        memcpy(p->sec_oam + 4 * found++, p->oam + 4 * i, 4);
        n = i + 1; /* the sprites looked at so far */
    }
    unsigned dot = 65 + 2 * n + 6 * found;
    p->sec_count = (uint8_t)found;
    if (found == 8 && !(p->status & 0x20)) {
        unsigned k = 0;
        for (; n < 64; n++) {
            if (line - p->oam[4 * n + k] < h) {
                p->ovf_pending = 1;
                p->ovf_dot = (uint16_t)(dot + 1);
                break;
            }
            k = (k + 1) & 3;
            dot += 2;
        }
    }
}

/* Pattern address of slot i's row for the line after `line`. */
static unsigned spr_addr(const rg__nes_ppu *p, unsigned line, unsigned i)
{
    const uint8_t *s = p->sec_oam + 4 * i;
    unsigned h = (p->ctrl & 0x20) ? 16u : 8u;
    unsigned row = (line - s[0]) & (h - 1);
    if (s[2] & 0x80)
        row = h - 1 - row;
    if (h == 16)
        return (unsigned)(s[1] & 1) << 12 | (unsigned)(s[1] & 0xFE) << 4 | (row & 8) << 1 | (row & 7);
    return (unsigned)(p->ctrl & 0x08) << 9 | (unsigned)s[1] << 4 | row;
}

static void paint(rg__nes_ppu *p, unsigned i, uint8_t lo, uint8_t hi)
{
    const uint8_t *s = p->sec_oam + 4 * i;
    if (s[2] & 0x40) {
        lo = reverse8(lo);
        hi = reverse8(hi);
    }
    if (!(lo | hi))
        return;
    unsigned add = (unsigned)(s[2] & 3) << 2 | ((s[2] & 0x20) ? 0x10u : 0u) | ((i == 0 && p->spr0_line) ? 0x20u : 0u);
    if (i == 0 && p->spr0_line)
        p->spr0_x = s[3];
    for (unsigned k = 0, x = s[3]; k < 8 && x < 256; k++, x++) {
        unsigned px = (unsigned)(lo >> (7 - k) & 1) | (unsigned)(hi >> (7 - k) & 1) << 1;
        if (px && !p->spr_line[x])
            p->spr_line[x] = (uint8_t)(px | add);
    }
    p->spr_line_used = 1;
}

/* Dots [from, to) within 257-320: the sprite slots' fetches (pattern low at +4, high at +6 of each 8). */
static void sprite_fetches(rg__nes_machine *m, rg__nes_ppu *p, unsigned line, unsigned from, unsigned to,
                           uint64_t dot0, int full)
{
    for (unsigned i = (from - 257) >> 3; i < 8; i++) {
        unsigned lo_dot = 257 + 8 * i + RG__PPU_WATCH_LO, hi_dot = 257 + 8 * i + RG__PPU_WATCH_HI;
        if (lo_dot >= to)
            break;
        int used = i < p->sec_count && (full || (i == 0 && p->spr0_line));
        if (!used && !m->ppu_watch)
            continue;
        unsigned a = spr_addr(p, line, i);
        if (lo_dot >= from && m->ppu_watch)
            rg__nes_cart_ppu_addr(m, (uint16_t)a, dot0 + lo_dot);
        if (hi_dot >= from && hi_dot < to) {
            if (m->ppu_watch)
                rg__nes_cart_ppu_addr(m, (uint16_t)(a + 8), dot0 + hi_dot);
            if (used)
                paint(p, i, rg__ppu_chr(m, a), rg__ppu_chr(m, a + 8));
        }
    }
}

/* Dots 1-256 of a drawn line with no mapper watching the fetches, at once: bg_group's work with the PPU's
 * registers in locals (the same fetches, increments and pixels), sprite evaluation at dot 65 as in the dot loop. */
static void bg_line(rg__nes_machine *m, rg__nes_ppu *p, unsigned line, int full, uint16_t *row, const uint16_t *col)
{
    uint16_t v = p->v;
    uint64_t shift = p->bg_shift;
    const unsigned fine = 4u * p->x, mask = p->mask, base = (unsigned)(p->ctrl & 0x10u) << 8;
    uint8_t nt = p->nt_latch, at = p->at_latch, lo = p->lo_latch, hi = p->hi_latch;
    const uint16_t(*pair)[2] = bg_pairs(m, col);
    for (unsigned d = 1; d < 257; d += 8) {
        unsigned x0 = d - 1;
        if (d == 65)
            evaluate(m, p, line, full);
        uint64_t sh = shift << fine;
        if ((mask & 0x08) && (x0 >= 8 || (mask & 0x02)) && (!p->spr_line_used || no_sprite8(p, x0))) {
            bg8(row + x0, sh, pair);
        } else {
            for (unsigned i = 0; i < 8; i++, sh <<= 4)
                put_col(p, row, x0 + i, (unsigned)(sh >> 60), col);
        }
        shift <<= 32;
        nt = rg__ppu_nt(m, 0x2000u | (v & 0x0FFFu));
        uint8_t b = rg__ppu_nt(m, 0x23C0u | (v & 0x0C00u) | ((v >> 4) & 0x38u) | ((v >> 2) & 0x07u));
        at = (uint8_t)((b >> (((v >> 4) & 4u) | (v & 2u))) & 3u);
        unsigned a = base | (unsigned)nt << 4 | (unsigned)(v >> 12);
        lo = rg__ppu_chr(m, a);
        hi = rg__ppu_chr(m, a + 8);
        v = rg__ppu_inc_x(v);
        if (d + 7 == 256)
            v = rg__ppu_inc_y(v);
        shift |= k_spread[lo] | k_spread[hi] << 1 | (uint32_t)at * 0x44444444u;
    }
    p->v = v;
    p->bg_shift = shift;
    p->nt_latch = nt;
    p->at_latch = at;
    p->lo_latch = lo;
    p->hi_latch = hi;
}

/* --- a line segment */

void rg__nes_ppu_render(rg__nes_machine *m, unsigned line, unsigned from, unsigned to)
{
    rg__nes_ppu *p = &m->st.ppu;
    int visible = line < 240;
    int full = m->video || (line >= 239 && line < 240) || line == RG__NES_PPU_PRE_LINE;
    int pixels = visible && (m->video || (p->spr0_line && !(p->status & 0x40) && (p->mask & 0x18) == 0x18));
    uint16_t *row = (visible && m->video && m->fb) ? m->fb + line * RG__NES_WIDTH : NULL;
    uint64_t dot0 = p->dots - from; /* the clock at dot 0 of this line */
    unsigned d = from;
    /* the colours of whole tile groups (cached while the palette and PPUMASK's colour bits hold) */
    const uint16_t *col = row ? colors(m, p) : NULL;

    if (m->ppu_phase && line < 240 && from <= 2 && to > 2)
        rg__nes_cart_phase(m, RG__NES_PHASE_LINE);
    /* dots 1-256: the background, sprite evaluation at 65 */
    if (d < 257 && d < to) {
        if (d == 0)
            d = 1;
        unsigned e = to < 257 ? to : 257;
        if (d == 1 && e == 257 && !pixels && !m->ppu_watch) {
            /* 32 coarse X increments go once round the nametable pair, then fine Y + 1 */
            p->v = rg__ppu_inc_y((uint16_t)(p->v ^ 0x400));
            evaluate(m, p, line, full);
            d = 257;
        } else if (d == 1 && e == 257 && row && !m->ppu_watch) {
            bg_line(m, p, line, full, row, col);
            d = 257;
        } else {
            while (d < e) {
                if (d == 65)
                    evaluate(m, p, line, full);
                if (((d - 1) & 7) == 0 && d + 8 <= e) {
                    bg_group(m, p, d, dot0, row, pixels, col);
                    d += 8;
                } else {
                    bg_dot(m, p, d, dot0, row, pixels);
                    d++;
                }
            }
        }
    }
    /* dots 257-320: sprite fetches */
    if (d < to && d <= 320) {
        unsigned e = to < 321 ? to : 321;
        if (d == 257) {
            p->v = (uint16_t)((p->v & ~0x041Fu) | (p->t & 0x041Fu));
            if (p->spr_line_used)
                memset(p->spr_line, 0, sizeof p->spr_line);
            p->spr_line_used = 0;
            p->spr0_line = p->spr0_next;
            if (m->ppu_phase)
                rg__nes_cart_phase(m, RG__NES_PHASE_SPRITES);
        }
        p->oam_addr = 0;
        if (line == RG__NES_PPU_PRE_LINE && d < 305 && e > 280)
            p->v = (uint16_t)((p->v & 0x041Fu) | (p->t & ~0x041Fu));
        sprite_fetches(m, p, line, d, e, dot0, full);
        d = e;
    }
    /* dots 321-336: the next line's first two tiles; 337-340 fetch nothing we keep */
    if (d < to && d <= 336) {
        unsigned e = to < 337 ? to : 337;
        if (d == 321 && m->ppu_phase)
            rg__nes_cart_phase(m, RG__NES_PHASE_BG);
        if (d == 321 && e == 337 && line < 239 && !m->video && !m->ppu_watch && !p->spr0_line && !m->idle_off) {
            /* the next line is not drawn and has no sprite-0 hit to find, so nothing looks at its background
             * pixels, and its own fetches at 321-336 replace all these two tiles leave (the shifter's 64 bits, the
             * latches) before the state can be seen again; only v moves (two coarse X increments) */
            p->v = rg__ppu_inc_x(rg__ppu_inc_x(p->v));
            d = 337;
        }
        while (d < e) {
            if (((d - 1) & 7) == 0 && d + 8 <= e) {
                bg_group(m, p, d, dot0, NULL, 0, NULL);
                d += 8;
            } else {
                bg_dot(m, p, d, dot0, NULL, 0);
                d++;
            }
        }
    }
    if (p->ovf_pending && to > p->ovf_dot) {
        p->status |= 0x20;
        p->ovf_pending = 0;
    }
}
