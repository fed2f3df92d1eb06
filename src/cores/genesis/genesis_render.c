/* The Genesis VDP's picture, one line at a time (docs/genesis.md): planes A and B with full-screen / per-cell /
 * per-line horizontal scroll and full-screen / 2-cell vertical scroll, the window in place of plane A, sprites
 * along their link list with the per-line sprite limit and collision flag, priorities, H40 (320) and H32 (256).
 * Not yet: shadow/highlight, interlace, the per-line dot limit, the left-column quirk of 2-cell vertical scroll.
 *
 * Each layer is a line of bytes: bit 7 priority, bits 5-4 palette, bits 3-0 colour (0 transparent). */
#include "cores/genesis/genesis.h"

#include <string.h>

static const unsigned k_plane_cells[4] = {32, 64, 32, 128}; /* register 16's size codes (2 is invalid) */

static inline uint16_t vram_word(const rg__gen_vdp *v, unsigned addr)
{
    addr &= 0xFFFEu;
    return (uint16_t)(v->vram[addr] << 8 | v->vram[addr + 1u]);
}

/* The pixel of the pattern named by a name-table entry at (col, row) within its 8x8 cell. */
static inline uint8_t tile_pixel(const rg__gen_vdp *v, uint16_t entry, unsigned col, unsigned row)
{
    if (entry & 0x1000u)
        row = 7u - row;
    if (entry & 0x0800u)
        col = 7u - col;
    uint8_t b = v->vram[((entry & 0x7FFu) * 32u + row * 4u + col / 2u) & 0xFFFFu];
    unsigned c = (col & 1u) ? b & 15u : b >> 4;
    if (!c)
        return 0;
    return (uint8_t)((entry >> 8 & 0x80u) | ((entry >> 13) & 3u) << 4 | c);
}

#define BYTES_01 0x0101010101010101ull
#define BYTES_7F (0x7Fu * BYTES_01)
#define BYTES_80 (0x80u * BYTES_01)

/* 8 layer bytes as one word and back (byte i of the word is pixel i on a little-endian host; every operation below
 * works byte by byte, so the order only has to be the same both ways) */
static inline uint64_t load8(const uint8_t *p)
{
    uint64_t x;
    memcpy(&x, p, 8);
    return x;
}
static inline void store8(uint8_t *p, uint64_t x)
{
    memcpy(p, &x, 8);
}
/* 0xFF in each byte that is non-zero / has bit 7 set */
static inline uint64_t nonzero_mask(uint64_t x)
{
    return (((((x & BYTES_7F) + BYTES_7F) | x) & BYTES_80) >> 7) * 0xFFu;
}
static inline uint64_t high_mask(uint64_t x)
{
    return ((x & BYTES_80) >> 7) * 0xFFu;
}

/* The 8 pixels of a pattern row (4 VRAM bytes, pixel 0 in the first byte's high nibble) as 8 bytes in memory order,
 * mirrored when hflip; the non-zero ones get the attribute bits (priority, palette). */
static inline uint64_t row_bytes(const uint8_t *pat, int hflip, unsigned attr)
{
    uint64_t y = (uint32_t)pat[0] << 24 | (uint32_t)pat[1] << 16 | (uint32_t)pat[2] << 8 | pat[3];
    if (!y)
        return 0;
    y = (y | y << 16) & 0x0000FFFF0000FFFFull;
    y = (y | y << 8) & 0x00FF00FF00FF00FFull;
    y = (y | y << 4) & 0x0F0F0F0F0F0F0F0Full; /* byte k = nibble k from the low end: pixel 7 - k */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    if (hflip)
        y = __builtin_bswap64(y);
#else
    if (!hflip)
        y = __builtin_bswap64(y);
#endif
    return y | (((y + BYTES_7F) & BYTES_80) >> 7) * attr;
}

/* Plane line into out[0..w); out has 8 writable bytes before it and after out[w - 1] (the fine scroll's spill). */
static void draw_plane(const rg__gen_vdp *v, uint8_t *out, unsigned w, unsigned y, unsigned base, unsigned hs,
                       int is_b)
{
    unsigned pw = k_plane_cells[v->reg[16] & 3u], ph = k_plane_cells[(v->reg[16] >> 4) & 3u];
    unsigned col_mode = (v->reg[11] & 4u) != 0;
    if (!col_mode) { /* one vertical scroll for the line: a name-table entry and a pattern row per cell */
        unsigned py = (y + v->vsram[is_b]) & (ph * 8u - 1u), prow = py & 7u;
        unsigned row_base = base + (py >> 3) * pw * 2u;
        unsigned px = (0u - hs) & (pw * 8u - 1u), fine = px & 7u, cell = px >> 3;
        uint8_t *o = out - fine;
        for (unsigned x = 0; x < w + fine; x += 8u, cell++) {
            uint16_t e = vram_word(v, row_base + (cell & (pw - 1u)) * 2u);
            unsigned r = (e & 0x1000u) ? 7u - prow : prow;
            const uint8_t *pat = &v->vram[(e & 0x7FFu) * 32u + r * 4u]; /* 4 bytes, at most $FFFC-$FFFF */
            unsigned attr = (e >> 8 & 0x80u) | ((e >> 13) & 3u) << 4;
            store8(o + x, row_bytes(pat, (e & 0x0800u) != 0, attr));
        }
        return;
    }
    for (unsigned x = 0; x < w; x++) {
        unsigned vs = v->vsram[((x >> 4) * 2u + (unsigned)is_b) % 40u];
        unsigned py = (y + vs) & (ph * 8u - 1u);
        unsigned px = (x - hs) & (pw * 8u - 1u);
        uint16_t e = vram_word(v, base + ((py >> 3) * pw + (px >> 3)) * 2u);
        out[x] = tile_pixel(v, e, px & 7u, py & 7u);
    }
}

static void draw_window(const rg__gen_vdp *v, uint8_t *out, unsigned x0, unsigned x1, unsigned y, int wide)
{
    unsigned base = (v->reg[3] & (wide ? 0x3Cu : 0x3Eu)) << 10;
    unsigned ww = wide ? 64u : 32u;
    for (unsigned x = x0; x < x1; x++) {
        uint16_t e = vram_word(v, base + ((y >> 3) * ww + (x >> 3)) * 2u);
        out[x] = tile_pixel(v, e, x & 7u, y & 7u);
    }
}

/* A sprite found on the line: what drawing its row needs. */
typedef struct line_sprite {
    int sx;          /* screen x of its left edge */
    unsigned r;      /* row within the sprite, from its top (before the vertical flip) */
    unsigned hcells, vcells;
    uint16_t attr;   /* the entry's third word: priority, palette, flips, first pattern */
} line_sprite;

/* Rebuilds the per-line sprite lists from the sprite table at base (max entries): the link list from entry 0, at
 * most max steps, each sprite added to the lines it covers while they hold no more than the line limit + 1. */
static void sprite_cache_build(rg__gen_sprite_cache *c, const rg__gen_vdp *v, unsigned base, int wide)
{
    unsigned max = wide ? 80u : 64u, limit = wide ? 20u : 16u, s = 0;
    memcpy(c->sat, &v->vram[base], max * 8u);
    c->base = (uint16_t)base;
    c->wide = (uint8_t)wide;
    c->valid = 1;
    memset(c->count, 0, sizeof c->count);
    for (unsigned k = 0; k < max; k++) {
        const uint8_t *e = &c->sat[s * 8u];
        int sy = (int)((e[0] << 8 | e[1]) & 0x3FFu) - 128;
        unsigned link = e[3] & 0x7Fu;
        int y0 = sy < 0 ? 0 : sy, y1 = sy + (int)((e[2] & 3u) + 1u) * 8;
        if (y1 > (int)sizeof c->count)
            y1 = (int)sizeof c->count;
        for (int y = y0; y < y1; y++)
            if (c->count[y] <= limit)
                c->list[y][c->count[y]++] = (uint8_t)s;
        if (link == 0 || link >= max)
            break;
        s = link;
    }
}

/* The sprites of line y along the link list (at most 80 in H40, 64 in H32, read from VRAM in the line before, as
 * Genesis Plus GX does): the overflow flag when more than 20 (16) are on the line, a sprite at x = 0 hiding the later
 * ones; kept in m->sprites.next[y & 1] for draw_sprites. The walk comes from the machine's per-line lists, rebuilt
 * when the table's bytes changed (a table that wraps past $FFFF is walked each time). */
void rg__gen_sprite_parse(rg__gen_machine *m, unsigned y)
{
    int wide = (m->st.vdp.reg[12] & 1u) != 0;
    rg__gen_vdp *v = &m->st.vdp;
    rg__gen_sprite_cache *c = &m->sprites;
    unsigned base = (v->reg[5] & (wide ? 0x7Eu : 0x7Fu)) << 9;
    unsigned max = wide ? 80u : 64u, limit = wide ? 20u : 16u;
    unsigned n = 0;
    line_sprite ls[20];
    if (base + max * 8u <= 0x10000u && y < sizeof c->count) {
        if (!c->valid || c->wide != (uint8_t)wide || c->base != base || memcmp(c->sat, &v->vram[base], max * 8u))
            sprite_cache_build(c, v, base, wide);
        unsigned cnt = c->count[y];
        if (cnt > limit) {
            v->sprite_ovf = 1;
            cnt = limit;
        }
        for (unsigned i = 0; i < cnt; i++) {
            const uint8_t *e = &c->sat[c->list[y][i] * 8u];
            unsigned rawx = (e[6] << 8 | e[7]) & 0x1FFu;
            if (rawx == 0 && i > 0)
                break; /* a sprite at x = 0 hides the lower-priority sprites on its line */
            line_sprite *p = &ls[n++];
            int sy = (int)((e[0] << 8 | e[1]) & 0x3FFu) - 128;
            p->sx = (int)rawx - 128;
            p->r = y - (unsigned)sy;
            p->hcells = ((e[2] >> 2) & 3u) + 1u;
            p->vcells = (e[2] & 3u) + 1u;
            p->attr = (uint16_t)(e[4] << 8 | e[5]);
        }
    } else {
        unsigned s = 0, on_line = 0;
        int masked = 0;
        for (unsigned k = 0; k < max; k++) {
            unsigned e = base + s * 8u;
            int sy = (int)(vram_word(v, e) & 0x3FFu) - 128;
            unsigned size = v->vram[(e + 2u) & 0xFFFFu];
            unsigned link = v->vram[(e + 3u) & 0xFFFFu] & 0x7Fu;
            unsigned vcells = (size & 3u) + 1u;
            if ((int)y >= sy && (int)y < sy + (int)vcells * 8) {
                if (++on_line > limit) {
                    v->sprite_ovf = 1;
                    break;
                }
                unsigned rawx = vram_word(v, e + 6u) & 0x1FFu;
                if (rawx == 0 && on_line > 1)
                    masked = 1;
                if (!masked) {
                    line_sprite *p = &ls[n++];
                    p->sx = (int)rawx - 128;
                    p->r = y - (unsigned)sy;
                    p->hcells = ((size >> 2) & 3u) + 1u;
                    p->vcells = vcells;
                    p->attr = vram_word(v, e + 4u);
                }
            }
            if (link == 0 || link >= max)
                break;
            s = link;
        }
    }
    c->next_n[y & 1u] = (uint8_t)n;
    for (unsigned i = 0; i < n; i++) {
        c->next[y & 1u][i].sx = (int16_t)ls[i].sx;
        c->next[y & 1u][i].r = (uint8_t)ls[i].r;
        c->next[y & 1u][i].hcells = (uint8_t)ls[i].hcells;
        c->next[y & 1u][i].vcells = (uint8_t)ls[i].vcells;
        c->next[y & 1u][i].attr = ls[i].attr;
    }
}

/* Line y's sprites (as rg__gen_sprite_parse read them a line before) into out[0..w), patterns read now: in list
 * order (the first one on a dot stays), with the collision flag when two meet on a dot. With out NULL (a line nobody
 * sees) the pixels are worked out only when the collision flag is still clear and two of the sprites cover a common
 * dot, so the flags end as when drawing. */
static void draw_sprites(rg__gen_machine *m, uint8_t *out, unsigned w, unsigned y)
{
    rg__gen_vdp *v = &m->st.vdp;
    rg__gen_sprite_cache *c = &m->sprites;
    unsigned n = c->next_n[y & 1u];
    line_sprite ls[20];
    for (unsigned i = 0; i < n; i++) {
        ls[i].sx = c->next[y & 1u][i].sx;
        ls[i].r = c->next[y & 1u][i].r;
        ls[i].hcells = c->next[y & 1u][i].hcells;
        ls[i].vcells = c->next[y & 1u][i].vcells;
        ls[i].attr = c->next[y & 1u][i].attr;
    }
    if (!n)
        return;
    uint8_t scratch[RG__GEN_WIDTH];
    if (!out) {
        if (v->sprite_col || n < 2)
            return;
        int meet = 0;
        for (unsigned i = 0; i < n && !meet; i++) {
            int a0 = ls[i].sx, a1 = ls[i].sx + (int)ls[i].hcells * 8;
            if (a0 < 0)
                a0 = 0;
            if (a1 > (int)w)
                a1 = (int)w;
            for (unsigned j = i + 1; j < n && a0 < a1; j++) {
                int b0 = ls[j].sx, b1 = ls[j].sx + (int)ls[j].hcells * 8;
                if (b0 < a1 && a0 < b1 && b0 < (int)w && b1 > 0) {
                    meet = 1;
                    break;
                }
            }
        }
        if (!meet)
            return;
        memset(scratch, 0, w);
        out = scratch;
    }
    for (unsigned i = 0; i < n; i++) {
        const line_sprite *p = &ls[i];
        unsigned attr = p->attr, r = p->r;
        if (attr & 0x1000u)
            r = p->vcells * 8u - 1u - r;
        unsigned pa = (attr >> 8 & 0x80u) | ((attr >> 13) & 3u) << 4;
        int hflip = (attr & 0x0800u) != 0;
        for (unsigned cx = 0; cx < p->hcells; cx++) {
            int X = p->sx + (int)cx * 8;
            if (X <= -8 || X >= (int)w)
                continue;
            unsigned tcol = hflip ? p->hcells - 1u - cx : cx;
            unsigned tile = ((attr & 0x7FFu) + tcol * p->vcells + (r >> 3)) & 0x7FFu;
            uint64_t px = row_bytes(&v->vram[tile * 32u + (r & 7u) * 4u], hflip, pa);
            if (!px)
                continue;
            if (X >= 0 && X + 8 <= (int)w) {
                uint64_t cur = load8(out + X), busy = nonzero_mask(cur);
                if (busy & px)
                    v->sprite_col = 1;
                store8(out + X, cur | (px & ~busy));
                continue;
            }
            uint8_t b[8];
            store8(b, px);
            for (int d = 0; d < 8; d++) {
                int x = X + d;
                if (x < 0 || x >= (int)w || !b[d])
                    continue;
                if (out[x])
                    v->sprite_col = 1;
                else
                    out[x] = b[d];
            }
        }
    }
}

/* A colour level c (0-7) as Genesis Plus GX shows it under stable-retro, so that observations are its bytes: GPGX
 * makes the level a 4-bit intensity 2c, packs it into RGB565 (red and blue: 2c << 1 | 2c >> 3, green: 2c << 2 |
 * 2c >> 2), and the frame's RGB565 becomes bytes by plain shifts (src/emu/video_convert.c). */
static inline unsigned level_rb(unsigned c)
{
    unsigned v = 2u * c;
    return ((v << 1 | v >> 3) & 31u) << 3;
}

static inline unsigned level_g(unsigned c)
{
    unsigned v = 2u * c;
    return ((v << 2 | v >> 2) & 63u) << 2;
}

static inline uint32_t colour(const rg__gen_vdp *v, unsigned idx)
{
    unsigned c = v->cram[idx & 63u];
    unsigned r = (c >> 1) & 7u, g = (c >> 5) & 7u, b = (c >> 9) & 7u;
    return (uint32_t)(level_rb(r) << 16 | level_g(g) << 8 | level_rb(b));
}

void rg__gen_sprite_line(rg__gen_machine *m, unsigned y)
{
    rg__gen_vdp *v = &m->st.vdp;
    if (!(v->reg[1] & 0x40u))
        return;
    int wide = (v->reg[12] & 1u) != 0;
    draw_sprites(m, NULL, wide ? 320u : 256u, y);
    if (y + 1u < v->view_h)
        rg__gen_sprite_parse(m, y + 1u);
}

void rg__gen_render_line(rg__gen_machine *m, unsigned y)
{
    rg__gen_vdp *v = &m->st.vdp;
    int wide = (v->reg[12] & 1u) != 0;
    unsigned w = wide ? 320u : 256u;
    uint32_t *dst = m->fb + (size_t)y * RG__GEN_WIDTH;
    uint32_t back = colour(v, v->reg[7] & 0x3Fu);
    for (unsigned x = w; x < RG__GEN_WIDTH; x++) /* H32: the rest of the row is black, whatever was drawn before */
        dst[x] = 0;
    if (!(v->reg[1] & 0x40u)) {
        for (unsigned x = 0; x < w; x++)
            dst[x] = back;
        return;
    }
    /* the planes' lines with 8 bytes of room either side for the fine scroll */
    uint8_t abuf[8 + RG__GEN_WIDTH + 8], bbuf[8 + RG__GEN_WIDTH + 8], s[RG__GEN_WIDTH];
    uint8_t *a = abuf + 8, *b = bbuf + 8;
    memset(s, 0, w);
    /* horizontal scroll: full screen, per cell (8 lines), per line; mode 1 repeats the first 8 lines */
    static const unsigned k_hmask[4] = {0u, 7u, ~7u, ~0u};
    unsigned hbase = (v->reg[13] & 0x3Fu) << 10;
    unsigned hline = y & k_hmask[v->reg[11] & 3u];
    unsigned hsa = vram_word(v, hbase + hline * 4u) & 0x3FFu, hsb = vram_word(v, hbase + hline * 4u + 2u) & 0x3FFu;
    draw_plane(v, b, w, y, (v->reg[4] & 7u) << 13, hsb, 1);
    draw_plane(v, a, w, y, (v->reg[2] & 0x38u) << 10, hsa, 0);
    /* the window: whole lines above / below register 18's row, else columns left / right of register 17's */
    unsigned wv = (v->reg[18] & 0x1Fu) * 8u, wh = (v->reg[17] & 0x1Fu) * 16u;
    int line_in = (v->reg[18] & 0x80u) ? y >= wv : y < wv;
    if (line_in)
        draw_window(v, a, 0, w, y, wide);
    else if (v->reg[17] & 0x80u)
        draw_window(v, a, wh < w ? wh : w, w, y, wide);
    else
        draw_window(v, a, 0, wh < w ? wh : w, y, wide);
    draw_sprites(m, s, w, y);
    if (y + 1u < v->view_h)
        rg__gen_sprite_parse(m, y + 1u);
    /* colours: the 64 of CRAM, with colour 0 of each palette showing the backdrop (kept while CRAM and the backdrop
     * register stay as they were) */
    rg__gen_sprite_cache *c = &m->sprites;
    unsigned back_idx = v->reg[7] & 0x3Fu;
    if (!c->pal_valid || c->back_idx != back_idx || memcmp(c->cram, v->cram, sizeof c->cram)) {
        memcpy(c->cram, v->cram, sizeof c->cram);
        c->back_idx = (uint8_t)back_idx;
        c->pal_valid = 1;
        for (unsigned i = 0; i < 64; i++)
            c->pal[i] = (i & 15u) ? colour(v, i) : back;
    }
    const uint32_t *pal = c->pal;
    /* priority, 8 dots at a time: high sprite > high A > high B > sprite > A > B (0 is transparent) */
    for (unsigned x = 0; x < w; x += 8u) {
        uint64_t S = load8(s + x), A = load8(a + x), B = load8(b + x);
        uint64_t ms = nonzero_mask(S), ma = nonzero_mask(A);
        uint64_t lo = S | (~ms & (A | (~ma & B)));
        uint64_t hs = high_mask(S), ha = high_mask(A), hb = high_mask(B);
        uint64_t hi = (S & hs) | (~hs & ((A & ha) | (~ha & B & hb)));
        uint64_t p = hi | (~(hs | ha | hb) & lo);
        uint8_t px[8];
        store8(px, p);
        for (unsigned i = 0; i < 8; i++)
            dst[x + i] = pal[px[i] & 0x3Fu];
    }
}
