/* Drawing and collisions: the TIA catches up with the CPU in runs of pixels.
 *
 * Each object's pixels on the current line are kept as a 160-bit coverage bitmap, rebuilt only when something
 * about the object changes. A run of pixels is then: the background filled, the objects painted over it in
 * reverse priority (runs of set bits), and the collision latches set from pairwise ANDs of the bitmaps over the run.
 * Without video (skipped frames, lines outside the window) only the collisions are computed, and only when two or
 * more objects have something to draw. Like Stella 3.9.3 there are no collisions during VBLANK, and the first 8
 * pixels after an HMOVE blank are painted black but still collide. */
#include "cores/atari2600/a26.h"

#include <string.h>

/* This instance's names (a26.h): tia_render_avx2.c includes this file for AVX2 with RG__TIA_RENDER_AVX2 defined. */
#ifdef RG__TIA_RENDER_AVX2
#define RG__TR(name) name##_avx2
#else
#define RG__TR(name) name##_base
#endif

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if RG__TIA_WIDE_PAINT
#include <immintrin.h>
#endif

#if defined(__GNUC__)
#define CTZ64(x) __builtin_ctzll(x)
#else
static int CTZ64(uint64_t x)
{
    int n = 0;
    while (!(x & 1u)) {
        x >>= 1;
        n++;
    }
    return n;
}
#endif

/* The latch bits (bit 2r+1 / 2r: bits 7 / 6 of read register r) that two or more enabled objects can set, by the
 * enabled set, and the two objects of each latch bit. */
static const uint16_t k_possible[64] = {
    0x0000, 0x0000, 0x0000, 0x0001, 0x0000, 0x8000, 0x0002, 0x8003,
    0x0000, 0x0008, 0x4000, 0x4009, 0x0004, 0x800C, 0x4006, 0xC00F,
    0x0000, 0x0010, 0x0100, 0x0111, 0x0040, 0x8050, 0x0142, 0x8153,
    0x0400, 0x0418, 0x4500, 0x4519, 0x0444, 0x845C, 0x4546, 0xC55F,
    0x0000, 0x0020, 0x0200, 0x0221, 0x0080, 0x80A0, 0x0282, 0x82A3,
    0x0800, 0x0828, 0x4A00, 0x4A29, 0x0884, 0x88AC, 0x4A86, 0xCAAF,
    0x2000, 0x2030, 0x2300, 0x2331, 0x20C0, 0xA0F0, 0x23C2, 0xA3F3,
    0x2C00, 0x2C38, 0x6F00, 0x6F39, 0x2CC4, 0xACFC, 0x6FC6, 0xEFFF,
};
static const uint8_t k_latch_objs[16][2] = {
    {1, 0}, {1, 2}, {3, 2}, {3, 0}, {0, 4}, {0, 5}, {2, 4}, {2, 5},
    {1, 4}, {1, 5}, {3, 4}, {3, 5}, {0, 0}, {4, 5}, {1, 3}, {0, 2},
};

/* Copies per NUSIZ mode as multipliers of an 8-pixel pattern (copies 16 pixels apart never overlap); modes 4 and 6
 * also have a copy 64 pixels right. */
static const uint64_t k_copy_mul[8] = {
    1, 1 | 1ull << 16, 1 | 1ull << 32, 1 | 1ull << 16 | 1ull << 32, 1, 1, 1 | 1ull << 32, 1,
};

/* --- coverage bitmaps */

/* A pattern (bits 0..127 in lo/hi) starting at pixel pos (0..159), wrapping at 160. The shifted pattern spans the
 * words q..q+2 of a 320-bit line whose upper half folds onto the lower; kept in scalars (a local array indexed by
 * q went through memory and stalled on store forwarding). */
static void place(uint64_t out[3], uint64_t lo, uint64_t hi, int pos)
{
    int q = pos >> 6, r = pos & 63;
    /* (x >> 1) >> (63 - r) is x >> (64 - r), and 0 for r = 0 */
    uint64_t a = lo << r, b = hi << r | (lo >> 1) >> (63 - r), c = (hi >> 1) >> (63 - r);
    uint64_t w0 = 0, w1 = 0, w2, w3 = 0, w4 = 0;
    if (q == 0) {
        w0 = a;
        w1 = b;
        w2 = c;
    } else if (q == 1) {
        w1 = a;
        w2 = b;
        w3 = c;
    } else {
        w2 = a;
        w3 = b;
        w4 = c;
    }
    out[0] = w0 | (w2 >> 32 | w3 << 32);
    out[1] = w1 | (w3 >> 32 | w4 << 32);
    out[2] = (w2 & 0xFFFFFFFFu) | w4 >> 32;
}

/* Each of the 8 bits of g repeated `scale` (2 or 4) times. */
static uint64_t stretch(uint8_t g, int scale)
{
    uint64_t r = 0, unit = scale == 2 ? 3u : 15u;
    for (; g; g &= (uint8_t)(g - 1u))
        r |= unit << (CTZ64(g) * scale);
    return r;
}

/* Copies of a pattern per NUSIZ mode (offsets 0..64); skip_first leaves out the copy at the position. */
static void copies(uint64_t out[3], uint64_t pat, int mode, int skip_first, int pos)
{
    uint64_t lo = pat * k_copy_mul[mode] - (skip_first ? pat : 0);
    place(out, lo, (mode == 4 || mode == 6) ? pat : 0, pos);
}

/* 20 playfield bits, each 4 pixels wide. */
static void expand_pf(uint32_t bits, uint64_t *lo, uint64_t *hi)
{
    static const uint16_t k_x4[16] = {
        0x0000, 0x000F, 0x00F0, 0x00FF, 0x0F00, 0x0F0F, 0x0FF0, 0x0FFF,
        0xF000, 0xF00F, 0xF0F0, 0xF0FF, 0xFF00, 0xFF0F, 0xFFF0, 0xFFFF,
    };
    *lo = (uint64_t)k_x4[bits & 15u] | (uint64_t)k_x4[bits >> 4 & 15u] << 16 |
          (uint64_t)k_x4[bits >> 8 & 15u] << 32 | (uint64_t)k_x4[bits >> 12 & 15u] << 48;
    *hi = k_x4[bits >> 16 & 15u];
}

static uint32_t reverse20(uint32_t v)
{
    v = (v & 0x55555555u) << 1 | (v >> 1 & 0x55555555u);
    v = (v & 0x33333333u) << 2 | (v >> 2 & 0x33333333u);
    v = (v & 0x0F0F0F0Fu) << 4 | (v >> 4 & 0x0F0F0F0Fu);
    v = (v & 0x00FF00FFu) << 8 | (v >> 8 & 0x00FF00FFu);
    return (v << 16 | v >> 16) >> 12;
}

static void build(rg__a26_tia *t, int obj)
{
    uint64_t *c = t->cover[obj];
    switch (obj) {
    case RG__TIA_P0:
    case RG__TIA_P1: {
        int p = obj == RG__TIA_P1, mode = t->nusiz[p] & 7;
        if (mode == 5 || mode == 7) /* a stretched player starts one pixel later */
            copies(c, stretch(t->cur_grp[p], mode == 5 ? 2 : 4), mode, t->suppress[p], (t->pos[obj] + 1) % 160);
        else
            copies(c, t->cur_grp[p], mode, t->suppress[p], t->pos[obj]);
        break;
    }
    case RG__TIA_M0:
    case RG__TIA_M1: {
        int i = obj == RG__TIA_M1, mode = t->nusiz[i] & 7, size = t->nusiz[i] >> 4 & 3;
        int pos = t->pos[obj];
        if (!i && t->mmr[RG__TIA_M0] && (pos & 2)) {
            /* missile 0 moving 17 pixels a line (the "Cosmic Ark" stars): Stella hides it at positions 2 mod 4
             * and widens it to at least 2 pixels, one pixel to the left, at positions 3 mod 4 */
            if (!(pos & 1)) {
                c[0] = c[1] = c[2] = 0;
                break;
            }
            size |= 1;
            pos--;
        }
        copies(c, (1u << (1 << size)) - 1u, mode, 0, pos);
        break;
    }
    case RG__TIA_BL:
        place(c, (1u << (1 << (t->ctrlpf >> 4 & 3))) - 1u, 0, t->pos[obj]);
        break;
    default: {
        uint64_t l0, l1, r0, r1;
        expand_pf(t->pf_bits, &l0, &l1);
        if (t->pf_reflect)
            expand_pf(reverse20(t->pf_bits), &r0, &r1);
        else {
            r0 = l0;
            r1 = l1;
        }
        c[0] = l0;
        c[1] = l1 | r0 << 16;
        c[2] = r0 >> 48 | r1 << 16;
        break;
    }
    }
}

static void rebuild(rg__a26_tia *t, uint8_t objs)
{
    uint8_t todo = t->dirty & objs;
    if (!todo)
        return;
    t->dirty &= (uint8_t)~todo;
    for (; todo; todo &= (uint8_t)(todo - 1u))
        build(t, CTZ64(todo));
}

/* --- runs */

/* The pixels below x in each of the three words, for x = 0..160: a table, so that a segment's three masks are six
 * loads (a segment's ends fall anywhere, and computing them took two branches each). */
#define RG__LOW(n) ((n) <= 0 ? (uint64_t)0 : (n) >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << ((n) & 63)) - 1u)
#define RG__BELOW(x) {RG__LOW(x), RG__LOW((x) - 64), RG__LOW((x) - 128)}
#define RG__BELOW8(x) RG__BELOW(x), RG__BELOW((x) + 1), RG__BELOW((x) + 2), RG__BELOW((x) + 3), RG__BELOW((x) + 4), \
    RG__BELOW((x) + 5), RG__BELOW((x) + 6), RG__BELOW((x) + 7)
static const uint64_t k_below[161][3] = {
    RG__BELOW8(0), RG__BELOW8(8), RG__BELOW8(16), RG__BELOW8(24), RG__BELOW8(32), RG__BELOW8(40), RG__BELOW8(48),
    RG__BELOW8(56), RG__BELOW8(64), RG__BELOW8(72), RG__BELOW8(80), RG__BELOW8(88), RG__BELOW8(96), RG__BELOW8(104),
    RG__BELOW8(112), RG__BELOW8(120), RG__BELOW8(128), RG__BELOW8(136), RG__BELOW8(144), RG__BELOW8(152),
    RG__BELOW(160),
};
#undef RG__BELOW8
#undef RG__BELOW
#undef RG__LOW

/* The pixels x0..x1-1 (0 <= x0 <= x1 <= 160) in word w. */
static uint64_t word_range(int w, int x0, int x1)
{
    return k_below[x1][w] & ~k_below[x0][w];
}

/* Sets the latches in todo whose two objects' bitmaps (cov) share a pixel within the masks r0..r2. */
static inline void latch(rg__a26_tia *t, unsigned todo, const uint64_t (*cov)[3], uint64_t r0, uint64_t r1,
                         uint64_t r2)
{
    for (; todo; todo &= todo - 1u) {
        int bit = CTZ64(todo);
        const uint64_t *a = cov[k_latch_objs[bit][0]], *b = cov[k_latch_objs[bit][1]];
        if ((a[0] & b[0] & r0) | (a[1] & b[1] & r1) | (a[2] & b[2] & r2))
            t->collisions |= (uint16_t)(1u << bit);
    }
}

/* The latches two objects' pixels in the accumulated segments set (the segments are disjoint, so the AND of two
 * objects' accumulated pixels is the union of their per-segment ANDs). */
void RG__TR(rg__tia_collisions)(rg__a26_machine *m)
{
    rg__a26_tia *t = &m->st.tia;
    latch(t, k_possible[m->acc_en] & ~(unsigned)t->collisions, (const uint64_t (*)[3])m->acc, ~(uint64_t)0,
          ~(uint64_t)0, ~(uint64_t)0);
}

/* Runs are short (a player is 8 pixels): 4 pixels a store, the last store overlapping the one before; 16 a step
 * for the long ones (a line's background). */
static void fill(uint32_t *p, int n, uint32_t c)
{
#if defined(__SSE2__)
    if (n >= 4) {
        __m128i v = _mm_set1_epi32((int)c);
        int i = 0;
        for (; i + 16 < n; i += 16) {
            _mm_storeu_si128((__m128i *)(p + i), v);
            _mm_storeu_si128((__m128i *)(p + i + 4), v);
            _mm_storeu_si128((__m128i *)(p + i + 8), v);
            _mm_storeu_si128((__m128i *)(p + i + 12), v);
        }
        for (; i + 4 < n; i += 4)
            _mm_storeu_si128((__m128i *)(p + i), v);
        _mm_storeu_si128((__m128i *)(p + n - 4), v);
        return;
    }
#endif
    for (int i = 0; i < n; i++)
        p[i] = c;
}

/* Paints the set pixels of bits3[0..2] (a bitmap already limited to the run). */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void paint(uint32_t *row, const uint64_t bits3[3], uint32_t color)
{
    for (int w = 0; w < 3; w++) {
        uint64_t bits = bits3[w];
        while (bits) {
            int s = CTZ64(bits);
            uint64_t run = ~(bits >> s);
            int n = run ? CTZ64(run) : 64 - s;
            fill(row + 64 * w + s, n, color);
            bits &= n == 64 ? 0 : ~((((uint64_t)1 << n) - 1u) << s);
        }
    }
}

/* The accumulated pixels of the objects in objs; 0 when none is set. */
static uint64_t masked(const uint64_t (*acc)[3], uint8_t objs, uint64_t out[3])
{
    out[0] = out[1] = out[2] = 0;
    for (; objs; objs &= (uint8_t)(objs - 1u)) {
        const uint64_t *c = acc[CTZ64(objs)];
        out[0] |= c[0];
        out[1] |= c[1];
        out[2] |= c[2];
    }
    return out[0] | out[1] | out[2];
}

/* The layers of the accumulated pixels in painting order, the lowest priority first: each the pixels of some objects
 * (none empty), and the colour register they show in (0: COLUP0, 1: COLUP1, 2: COLUPF). Returns how many (at most
 * 6: the playfield in score mode is two, its left half in player 0's colour, its right half in player 1's, and only
 * without priority). */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int layers(const rg__a26_machine *m, uint64_t layer[6][3], uint8_t reg[6])
{
    const rg__a26_tia *t = &m->st.tia;
    const uint64_t (*acc)[3] = (const uint64_t (*)[3])m->acc;
    uint8_t en = m->acc_en;
    int n = 0;
    if (!en)
        return 0;
    const uint8_t pf = 1u << RG__TIA_PF, bl = 1u << RG__TIA_BL;
    int score = (t->ctrlpf & 6u) == 2u; /* score colours only without priority */
    if (!(t->ctrlpf & 4u)) { /* P0/M0 over P1/M1 over PF over BL */
        if (masked(acc, en & bl, layer[n]))
            reg[n++] = 2;
        if (masked(acc, en & pf, layer[n])) {
            if (!score)
                reg[n++] = 2;
            else {
                uint64_t *u = layer[n];
                layer[n + 1][0] = 0;
                layer[n + 1][1] = u[1] & ~(uint64_t)0xFFFFu;
                layer[n + 1][2] = u[2];
                u[1] &= 0xFFFFu;
                u[2] = 0;
                reg[n] = 0;
                reg[n + 1] = 1;
                n += 2;
            }
        }
    }
    if (masked(acc, en & (1u << RG__TIA_P1 | 1u << RG__TIA_M1), layer[n]))
        reg[n++] = 1;
    if (masked(acc, en & (1u << RG__TIA_P0 | 1u << RG__TIA_M0), layer[n]))
        reg[n++] = 0;
    if ((t->ctrlpf & 4u) && masked(acc, en & (pf | bl), layer[n])) /* priority: PF and BL over the players */
        reg[n++] = 2;
    return n;
}

static void paint_objects(rg__a26_machine *m, uint32_t *row, int x0, int x1)
{
    rg__a26_tia *t = &m->st.tia;
    const uint32_t *pal = m->st.color_loss && m->palette_loss ? m->palette_loss : m->palette;
    fill(row + x0, x1 - x0, pal[t->colu[3] >> 1]);
    uint64_t layer[6][3];
    uint8_t reg[6];
    for (int i = 0, n = layers(m, layer, reg); i < n; i++)
        paint(row, layer[i], pal[t->colu[reg[i]] >> 1]);
    paint(row, m->acc_black, m->palette[0]);
}

#if RG__TIA_WIDE_PAINT
/* The same picture as palette indices (colour register / 2, + RG__A26_LOSS for the colour-loss palette), painted with
 * AVX-512 masked byte stores: a coverage word's 64 bits over 64 pixels are the mask of a 64-byte store. Each word the
 * run touches is composed in a register (the background, then each layer's index where its bits are set, in
 * painting order) and stored once, masked to the run. */
__attribute__((target("avx512f,avx512bw"))) static void paint_objects_wide(rg__a26_machine *m, uint8_t *row, int x0,
                                                                          int x1)
{
    rg__a26_tia *t = &m->st.tia;
    uint8_t loss = m->st.color_loss && m->palette_loss ? (uint8_t)RG__A26_LOSS : 0;
    uint64_t r[3] = {word_range(0, x0, x1), word_range(1, x0, x1), word_range(2, x0, x1)}, layer[6][3];
    uint8_t reg[6];
    int n = layers(m, layer, reg);
    __m512i colour[6];
    for (int i = 0; i < n; i++)
        colour[i] = _mm512_set1_epi8((char)(t->colu[reg[i]] >> 1 | loss));
    const __m512i bg = _mm512_set1_epi8((char)(t->colu[3] >> 1 | loss));
    for (int w = x0 >> 6, last = (x1 - 1) >> 6; w <= last; w++) {
        __m512i v = bg;
        for (int i = 0; i < n; i++)
            v = _mm512_mask_mov_epi8(v, layer[i][w], colour[i]);
        v = _mm512_mask_mov_epi8(v, m->acc_black[w], _mm512_setzero_si512()); /* black: index 0 */
        _mm512_mask_storeu_epi8(row + 64 * w, r[w], v);
    }
}
#endif

#ifndef RG__TIA_RENDER_AVX2 /* once, in the baseline instance */
int rg__tia_wide_paint_supported(void)
{
#if RG__TIA_WIDE_PAINT
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
#else
    return 0;
#endif
}

int rg__tia_avx2_supported(void)
{
#if RG__TIA_AVX2
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}
#endif

/* A segment's pixels (masks r0..r2) of each enabled object, added to the line's accumulators (a line drawn, no
 * VBLANK). */
static inline void accumulate(rg__a26_machine *m, rg__a26_tia *t, uint64_t r0, uint64_t r1, uint64_t r2)
{
    uint8_t en = t->enabled;
    if (!en)
        return;
    rebuild(t, en);
    m->acc_en |= en;
    for (; en; en &= (uint8_t)(en - 1u)) {
        int o = CTZ64(en);
        m->acc[o][0] |= t->cover[o][0] & r0;
        m->acc[o][1] |= t->cover[o][1] & r1;
        m->acc[o][2] |= t->cover[o][2] & r2;
    }
}

/* The accumulated run's bounds after a segment x0..x1 of a line drawn, and the HMOVE blank's black pixels in it
 * (from: the segment's first clock). */
static inline void extend_run(rg__a26_machine *m, const rg__a26_tia *t, int32_t line, int from, int x0, int x1,
                              uint64_t r0)
{
    if (m->acc_x1 <= m->acc_x0) {
        m->acc_x0 = (int16_t)x0;
        m->acc_line = line;
    }
    m->acc_x1 = (int16_t)x1;
    if (t->hmove_blank && from < RG__TIA_HBLANK + 8)
        m->acc_black[0] |= r0 & 0xFFu;
}

/* Clocks c0..c1 (0..228) of a line: on a line drawn, the segment's pixels are accumulated (rg__tia_flush paints
 * them and latches their collisions, once for all the line's segments); without video (skipped frames, lines
 * outside the window) the collisions are latched at once, and only while a latch can still be set. Like Stella
 * 3.9.3 there are no collisions during VBLANK, and the first 8 pixels after an HMOVE blank are painted black but
 * still collide. */
static void draw(rg__a26_machine *m, int32_t line, int c0, int c1)
{
    rg__a26_tia *t = &m->st.tia;
    int from = c0 >= RG__TIA_HBLANK ? c0 : c1 < RG__TIA_HBLANK ? c1 : RG__TIA_HBLANK;
    int x0 = from - RG__TIA_HBLANK, x1 = c1 - RG__TIA_HBLANK;
    int drawn = m->video && line >= m->ystart && line < m->ystart + m->height;
    if (x1 > x0) {
        uint64_t r0 = word_range(0, x0, x1), r1 = word_range(1, x0, x1), r2 = word_range(2, x0, x1);
        if (t->vblank & 2u) {
            if (drawn) {
                m->acc_black[0] |= r0;
                m->acc_black[1] |= r1;
                m->acc_black[2] |= r2;
            }
        } else if (drawn) {
            accumulate(m, t, r0, r1, r2);
        } else {
            /* nothing to paint: latched at once, so that the latches set let later segments skip (the update's
             * fast path tests them) */
            unsigned todo = k_possible[t->enabled] & ~(unsigned)t->collisions;
            if (todo) {
                rebuild(t, t->enabled);
                latch(t, todo, (const uint64_t (*)[3])t->cover, r0, r1, r2);
            }
        }
        if (drawn)
            extend_run(m, t, line, from, x0, x1, r0);
    }
    if (t->hmove_blank && from < RG__TIA_HBLANK + 8 && c1 >= RG__TIA_HBLANK + 8)
        t->hmove_blank = 0;
}

/* Only lines drawn accumulate: with no pixel drawn since the last flush, every accumulator is empty. */
void RG__TR(rg__tia_flush)(rg__a26_machine *m)
{
    if (m->acc_x1 <= m->acc_x0)
        return;
    RG__TR(rg__tia_collisions)(m);
    size_t at = (size_t)(m->acc_line - m->ystart) * RG__A26_WIDTH;
    if (m->wide_paint) {
#if RG__TIA_WIDE_PAINT
        paint_objects_wide(m, m->fb8 + at, m->acc_x0, m->acc_x1);
#endif
    } else {
        paint_objects(m, m->fb + at, m->acc_x0, m->acc_x1);
    }
    for (uint8_t en = m->acc_en; en; en &= (uint8_t)(en - 1u)) {
        uint64_t *a = m->acc[CTZ64(en)];
        a[0] = a[1] = a[2] = 0;
    }
    m->acc_black[0] = m->acc_black[1] = m->acc_black[2] = 0;
    m->acc_en = 0;
    m->acc_x0 = m->acc_x1 = 0;
}

void RG__TR(rg__tia_update)(rg__a26_machine *m, int32_t clock)
{
    rg__a26_tia *t = &m->st.tia;
    if (t->last_update >= clock)
        return;
    /* the most common case on a frame drawn: a TIA write in the visible part of a line shown, up from earlier in the
     * same line. draw()'s steps for that one segment (a line drawn, no VBLANK, no line end), without the line walk. */
    int32_t d0 = t->last_update - t->line_clock, d1 = clock - t->line_clock;
    if (d1 < RG__TIA_LINE && d1 > RG__TIA_HBLANK && !(t->vblank & 2u) && m->video && t->line >= m->ystart &&
        t->line < m->ystart + m->height && (uint32_t)t->line < m->stop_lines) {
        int from = d0 > RG__TIA_HBLANK ? (int)d0 : RG__TIA_HBLANK;
        int x0 = from - RG__TIA_HBLANK, x1 = (int)d1 - RG__TIA_HBLANK;
        uint64_t r0 = word_range(0, x0, x1), r1 = word_range(1, x0, x1), r2 = word_range(2, x0, x1);
        accumulate(m, t, r0, r1, r2);
        extend_run(m, t, t->line, from, x0, x1, r0);
        if (t->hmove_blank && from < RG__TIA_HBLANK + 8 && d1 >= RG__TIA_HBLANK + 8)
            t->hmove_blank = 0;
        t->last_update = clock;
        return;
    }
    /* the common cases: within the line's blank part, or nothing to draw or to latch */
    if (clock < t->line_clock + RG__TIA_LINE &&
        (clock <= t->line_clock + RG__TIA_HBLANK ||
         (!t->hmove_blank && (!m->video || t->line < m->ystart || t->line >= m->ystart + m->height) &&
          ((t->vblank & 2u) || !(k_possible[t->enabled] & ~(unsigned)t->collisions))))) {
        t->last_update = clock;
        return;
    }
    int32_t stop = t->frame_start + RG__TIA_LINE * (int32_t)m->stop_lines;
    if (t->last_update >= stop)
        return;
    if (clock > stop)
        clock = stop;
    /* line by line; reaching a line's start exactly also runs its (empty) start, like Stella */
    int32_t line = t->line, start = t->line_clock;
    int c0 = (int)(t->last_update - start);
    for (;;) {
        int32_t next = start + RG__TIA_LINE;
        int c1 = clock < next ? (int)(clock - start) : RG__TIA_LINE;
        if (c1 > c0)
            draw(m, line, c0, c1);
        if (c1 == RG__TIA_LINE && m->acc_x1 > m->acc_x0)
            RG__TR(rg__tia_flush)(m);
        if (c1 == RG__TIA_LINE || c1 == 0)
            rg__tia_line_end(t);
        if (clock < next)
            break;
        line++;
        start = next;
        c0 = 0;
        rg__tia_line_start(t);
    }
    t->line = line;
    t->line_clock = start;
    t->last_update = clock;
}

void RG__TR(rg__tia_clear_lines)(rg__a26_machine *m, int32_t from, int32_t to)
{
    if (from < m->ystart)
        from = m->ystart;
    if (to > m->ystart + m->height)
        to = m->ystart + m->height;
    /* both buffers, as Stella does (its other buffer gets colour 1, which is black too) */
    for (int32_t l = from; l < to; l++) {
        size_t at = (size_t)(l - m->ystart) * RG__A26_WIDTH;
        if (m->wide_paint) {
            memset(m->fb8 + at, 0, RG__A26_WIDTH);
            memset(m->fb8_prev + at, 0, RG__A26_WIDTH);
        } else {
            fill(m->fb + at, RG__A26_WIDTH, m->palette[0]);
            fill(m->fb_prev + at, RG__A26_WIDTH, m->palette[0]);
        }
    }
}
