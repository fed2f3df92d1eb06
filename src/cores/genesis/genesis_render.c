/* The Genesis VDP's picture, one line at a time, as Genesis Plus GX (stable-retro's core) draws it (docs/genesis.md,
 * "Picture"): planes A and B in 2-cell columns with full-screen / per-cell / per-line horizontal scroll and
 * full-screen / 2-cell vertical scroll (the partly shown left column's quirk included), the window in place of plane
 * A (and the column of plane A after a left window), sprites along their link list with the per-line sprite and dot
 * limits, masking and the collision flag, priorities, shadow/highlight, interlace (the double-resolution mode's
 * 16-line patterns, one field a frame), the left column blank, H40 (320) and H32 (256).
 *
 * Each layer is a line of bytes: bit 7 priority, bits 5-4 palette, bits 3-0 colour (0 transparent). */
#include "cores/genesis/genesis.h"

#include <string.h>

/* register 16's plane sizes as Genesis Plus GX applies them (the invalid size code 2 included): the shift of a row's
 * offset in the name table (kept inside 8 KiB), the mask of 2-cell columns, the mask of lines */
static const uint8_t k_pf_shift[4] = {6, 7, 0, 8};
static const uint8_t k_pf_colmask[4] = {0x0F, 0x1F, 0x0F, 0x3F};
static const uint16_t k_pf_rowmask[4] = {0x0FF, 0x1FF, 0x2FF, 0x3FF};

/* the intensities of a pixel in shadow/highlight mode (the index of the line palettes) */
enum { SHADOW = 0, NORMAL = 1, HIGHLIGHT = 2 };

static inline uint16_t vram_word(const rg__gen_vdp *v, unsigned addr)
{
    addr &= 0xFFFEu;
    return (uint16_t)(v->vram[addr] << 8 | v->vram[addr + 1u]);
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
 * mirrored when hflip; the non-zero ones get the attribute bits (priority, palette), or all of them when all (the
 * shadow/highlight merge needs the priority of transparent plane pixels). */
static inline uint64_t row_bytes(const uint8_t *pat, int hflip, unsigned attr, int all)
{
    uint64_t y = (uint32_t)pat[0] << 24 | (uint32_t)pat[1] << 16 | (uint32_t)pat[2] << 8 | pat[3];
    if (!y)
        return all ? attr * BYTES_01 : 0;
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
    if (all)
        return y | attr * BYTES_01;
    return y | (((y + BYTES_7F) & BYTES_80) >> 7) * attr;
}

/* How a line is drawn: double-resolution interlace (16-line patterns, the field's row of each) and whether the
 * attribute bits go to transparent plane pixels too. */
typedef struct line_mode {
    int im2;
    unsigned odd;
    int all;
} line_mode;

/* A 2-cell column: the two name-table entries at nt, pattern row row (0-7; 0-15 in double resolution, before the
 * vertical flip), 16 bytes at out. */
#define ALWAYS_INLINE inline __attribute__((always_inline))

static ALWAYS_INLINE void draw_column(const rg__gen_vdp *v, uint8_t *out, unsigned nt, unsigned row, line_mode lm)
{
    for (unsigned k = 0; k < 2u; k++) {
        uint16_t e = vram_word(v, nt + 2u * k);
        const uint8_t *pat; /* 4 bytes, at most $FFFC-$FFFF */
        if (lm.im2)
            pat = &v->vram[(e & 0x3FFu) * 64u + ((e & 0x1000u) ? 15u - row : row) * 4u];
        else
            pat = &v->vram[(e & 0x7FFu) * 32u + ((e & 0x1000u) ? 7u - row : row) * 4u];
        unsigned attr = (e >> 8 & 0x80u) | ((e >> 13) & 3u) << 4;
        store8(out + 8u * k, row_bytes(pat, (e & 0x0800u) != 0, attr, lm.all));
    }
}

/* A plane's 2-cell columns start..end-1 of line y into out (16 bytes of room before out[start * 16] and after
 * out[end * 16 - 1]: the fine scroll's partly shown column). hs: the line's horizontal scroll, vfirst: the vertical
 * scroll of that partly shown column in 2-cell mode (Genesis Plus GX: H40 the AND of column 19's two values, H32
 * none). Plane A after a window on the left (start > 0) shows, in its partly shown column, the entry of the column
 * after (the window bug as GPGX draws it). */
static ALWAYS_INLINE void draw_plane(const rg__gen_vdp *v, uint8_t *out, unsigned y, unsigned base, unsigned hs,
                                     int is_b, unsigned start, unsigned end, unsigned vfirst, line_mode lm)
{
    unsigned sz = v->reg[16];
    unsigned pf_shift = k_pf_shift[sz & 3u], colmask = k_pf_colmask[sz & 3u], rowmask = k_pf_rowmask[(sz >> 4) & 3u];
    unsigned fine = hs & 15u, index = colmask + start + 1u - ((hs >> 4) & colmask);
    int per_col = (v->reg[11] & 4u) != 0;
    unsigned vs = v->vsram[is_b];
    unsigned vl = 0, nt = 0, row = 0;
#define PLANE_ROW(VS)                                                                                                \
    do {                                                                                                             \
        vl = (y + (lm.im2 ? (VS) >> 1 : (VS))) & rowmask;                                                           \
        nt = base + (((vl >> 3) << pf_shift) & 0x1FC0u);                                                           \
        row = lm.im2 ? ((vl & 7u) << 1 | lm.odd) : (vl & 7u);                                                       \
    } while (0)
    PLANE_ROW(per_col ? vfirst : vs);
    if (fine) {
        unsigned col = (start && !is_b) ? index : index - 1u;
        draw_column(v, out + start * 16u + fine - 16u, nt + (col & colmask) * 4u, row, lm);
    }
    if (!per_col) {
        for (unsigned c = start; c < end; c++, index++)
            draw_column(v, out + c * 16u + fine, nt + (index & colmask) * 4u, row, lm);
        return;
    }
    for (unsigned c = start; c < end; c++, index++) {
        PLANE_ROW(v->vsram[c * 2u + (unsigned)is_b]);
        draw_column(v, out + c * 16u + fine, nt + (index & colmask) * 4u, row, lm);
    }
#undef PLANE_ROW
}

static ALWAYS_INLINE void draw_window(const rg__gen_vdp *v, uint8_t *out, unsigned start, unsigned end, unsigned y,
                                      int wide, line_mode lm)
{
    unsigned base = ((v->reg[3] & (wide ? 0x3Cu : 0x3Eu)) << 10) | (y >> 3) << (wide ? 7u : 6u);
    unsigned row = lm.im2 ? ((y & 7u) << 1 | lm.odd) : (y & 7u);
    for (unsigned c = start; c < end; c++)
        draw_column(v, out + c * 16u, base + c * 4u, row, lm);
}

/* A sprite found on the line: what drawing its row needs. */
typedef struct line_sprite {
    int sx;          /* screen x of its left edge (x - 128: -128 is the masking x = 0) */
    unsigned r;      /* row within the sprite, from its top (before the vertical flip) */
    unsigned hcells, vcells;
    uint16_t attr;   /* the entry's third word: priority, palette, flips, first pattern */
} line_sprite;

/* A sprite's y on the screen from its first word: 9 bits, the upper 9 of 10 in double resolution. */
static inline int sprite_y(unsigned word, int im2)
{
    return (int)((word >> (im2 ? 1 : 0)) & 0x1FFu) - 128;
}

/* Rebuilds the per-line sprite lists from the sprite table at base (max entries): the link list from entry 0, at
 * most max steps, each sprite added to the lines it covers while they hold no more than the line limit + 1. */
static void sprite_cache_build(rg__gen_sprite_cache *c, const rg__gen_vdp *v, unsigned base, int wide, int im2)
{
    unsigned max = wide ? 80u : 64u, limit = wide ? 20u : 16u, s = 0;
    memcpy(c->sat, v->sat, max * 8u);
    c->base = (uint16_t)base;
    c->wide = (uint8_t)wide;
    c->im2 = (uint8_t)im2;
    c->valid = 1;
    memset(c->count, 0, sizeof c->count);
    for (unsigned k = 0; k < max; k++) {
        const uint8_t *e = &c->sat[s * 8u];
        int sy = sprite_y((unsigned)(e[0] << 8 | e[1]), im2);
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

/* The sprites of line y along the link list (at most 80 in H40, 64 in H32, read in the line before, as Genesis Plus
 * GX does: y, size and link from the VDP's copy of the table (vdp.sat), x and the attribute word from VRAM at
 * register 5's place): the overflow flag when more than 20 (16) are on the line; kept in m->sprites.next[y & 1]
 * for draw_sprites. The walk comes from the machine's per-line lists, rebuilt when the copy's bytes changed. */
void rg__gen_sprite_parse(rg__gen_machine *m, unsigned y)
{
    int wide = (m->st.vdp.reg[12] & 1u) != 0, im2 = (m->st.vdp.lflags & RG__GEN_LF_IM2) != 0;
    rg__gen_vdp *v = &m->st.vdp;
    rg__gen_sprite_cache *c = &m->sprites;
    unsigned base = (v->reg[5] & (wide ? 0x7Eu : 0x7Fu)) << 9;
    unsigned max = wide ? 80u : 64u, limit = wide ? 20u : 16u;
    unsigned n = 0;
    line_sprite ls[20];
    if (base + max * 8u <= 0x10000u && y < sizeof c->count) {
        if (!c->valid || c->wide != (uint8_t)wide || c->im2 != (uint8_t)im2 || memcmp(c->sat, v->sat, max * 8u))
            sprite_cache_build(c, v, base, wide, im2);
        unsigned cnt = c->count[y];
        if (cnt > limit) {
            v->sprite_ovf = 1;
            cnt = limit;
        }
        for (unsigned i = 0; i < cnt; i++) {
            const uint8_t *e = &c->sat[c->list[y][i] * 8u], *x = &v->vram[base + c->list[y][i] * 8u + 4u];
            line_sprite *p = &ls[n++];
            p->sx = (int)((x[2] << 8 | x[3]) & 0x1FFu) - 128;
            p->r = y - (unsigned)sprite_y((unsigned)(e[0] << 8 | e[1]), im2);
            p->hcells = ((e[2] >> 2) & 3u) + 1u;
            p->vcells = (e[2] & 3u) + 1u;
            p->attr = (uint16_t)(x[0] << 8 | x[1]);
        }
    } else {
        unsigned s = 0;
        for (unsigned k = 0; k < max; k++) {
            unsigned e = base + s * 8u;
            const uint8_t *q = &v->sat[s * 8u];
            int sy = sprite_y((unsigned)(q[0] << 8 | q[1]), im2);
            unsigned size = q[2];
            unsigned link = q[3] & 0x7Fu;
            unsigned vcells = (size & 3u) + 1u;
            if ((int)y >= sy && (int)y < sy + (int)vcells * 8) {
                if (n == limit) {
                    v->sprite_ovf = 1;
                    break;
                }
                line_sprite *p = &ls[n++];
                p->sx = (int)(vram_word(v, e + 6u) & 0x1FFu) - 128;
                p->r = y - (unsigned)sy;
                p->hcells = ((size >> 2) & 3u) + 1u;
                p->vcells = vcells;
                p->attr = vram_word(v, e + 4u);
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

#define SPR_MARGIN 32u /* sprite cells are drawn whole, up to 31 dots left of the screen and right of it */

/* Line y's sprites (as rg__gen_sprite_parse read them a line before) into out[-32..w+32), patterns read now, as
 * Genesis Plus GX draws them: in list order, the first opaque dot of a place stays; the collision flag when an opaque
 * dot meets another (off the screen too); a sprite at x = 0 masks the sprites after it once a sprite at another x
 * came before it on the line, or from the first when the line before reached the dot limit; the dot limit (320 in
 * H40, 256 in H32: all sprites' widths counted, masked and off-screen ones too) cuts the sprite that passes it to
 * its whole cells within the limit and ends the line. With out NULL (a line nobody sees) the pixels are worked out
 * only when the collision flag is still clear and two drawn sprites share a dot, so the flags end as when drawing. */
static void draw_sprites(rg__gen_machine *m, uint8_t *out, unsigned w, unsigned y)
{
    rg__gen_vdp *v = &m->st.vdp;
    rg__gen_sprite_cache *c = &m->sprites;
    unsigned n = c->next_n[y & 1u], maxpix = (v->reg[12] & 1u) ? 320u : 256u;
    int im2 = (v->lflags & RG__GEN_LF_IM2) != 0;
    unsigned odd = v->odd & 1u;
    int ovr = (v->lflags & RG__GEN_LF_SPRMASK) != 0, masked = 0;
    unsigned pix = 0, nd = 0;
    struct { int x; unsigned cells; unsigned i; } dr[20]; /* the sprites drawn: x, whole cells, list index */
    for (unsigned i = 0; i < n; i++) {
        int sx = c->next[y & 1u][i].sx;
        unsigned width = c->next[y & 1u][i].hcells * 8u;
        if (sx != -128)
            ovr = 1;
        else if (ovr)
            masked = 1;
        pix += width;
        if (sx + (int)width > 0 && sx < (int)w && !masked) {
            unsigned wd = pix > maxpix ? width - (pix - maxpix) : width;
            if (wd >= 8u) {
                dr[nd].x = sx;
                dr[nd].cells = wd >> 3;
                dr[nd].i = i;
                nd++;
            }
        }
        if (pix >= maxpix) {
            ovr = pix >= w;
            goto listed;
        }
    }
    ovr = 0;
listed:
    v->lflags = (uint8_t)((v->lflags & ~RG__GEN_LF_SPRMASK) | (ovr ? RG__GEN_LF_SPRMASK : 0u));
    if (!nd)
        return;
    uint8_t scratch[SPR_MARGIN + RG__GEN_WIDTH + SPR_MARGIN];
    if (!out) {
        if (v->sprite_col || nd < 2)
            return;
        int meet = 0;
        for (unsigned i = 0; i < nd && !meet; i++)
            for (unsigned j = i + 1; j < nd; j++)
                if (dr[j].x < dr[i].x + (int)dr[i].cells * 8 && dr[i].x < dr[j].x + (int)dr[j].cells * 8) {
                    meet = 1;
                    break;
                }
        if (!meet)
            return;
        memset(scratch, 0, SPR_MARGIN + w + SPR_MARGIN);
        out = scratch + SPR_MARGIN;
    }
    for (unsigned k = 0; k < nd; k++) {
        unsigned i = dr[k].i;
        unsigned attr = c->next[y & 1u][i].attr, r0 = c->next[y & 1u][i].r, r = r0;
        unsigned hcells = c->next[y & 1u][i].hcells, vcells = c->next[y & 1u][i].vcells;
        if (attr & 0x1000u)
            r = vcells * 8u - 1u - r;
        unsigned pa = (attr >> 8 & 0x80u) | ((attr >> 13) & 3u) << 4;
        int hflip = (attr & 0x0800u) != 0;
        for (unsigned cx = 0; cx < dr[k].cells; cx++) {
            int X = dr[k].x + (int)cx * 8;
            unsigned tcol = hflip ? hcells - 1u - cx : cx;
            const uint8_t *pat;
            if (im2) {
                unsigned tile = ((attr & 0x3FFu) + tcol * vcells + (r >> 3)) & 0x3FFu;
                unsigned row = (r0 & 7u) << 1 | odd; /* the field's row of the 16, flipped below */
                pat = &v->vram[tile * 64u + ((attr & 0x1000u) ? 15u - row : row) * 4u];
            } else {
                unsigned tile = ((attr & 0x7FFu) + tcol * vcells + (r >> 3)) & 0x7FFu;
                pat = &v->vram[tile * 32u + (r & 7u) * 4u];
            }
            uint64_t px = row_bytes(pat, hflip, pa, 0);
            if (!px)
                continue;
            uint64_t cur = load8(out + X), busy = nonzero_mask(cur);
            if (busy & px)
                v->sprite_col = 1;
            store8(out + X, cur | (px & ~busy));
        }
    }
}

/* A colour intensity i (0-15: shadow c, normal 2c, highlight c + 7 for a level c) as Genesis Plus GX shows it under
 * stable-retro, so that observations are its bytes: GPGX packs it into RGB565 (red and blue: i << 1 | i >> 3, green:
 * i << 2 | i >> 2), and the frame's RGB565 becomes bytes by plain shifts (src/emu/video_convert.c). */
static inline unsigned level_rb(unsigned i)
{
    return ((i << 1 | i >> 3) & 31u) << 3;
}

static inline unsigned level_g(unsigned i)
{
    return ((i << 2 | i >> 2) & 63u) << 2;
}

/* CRAM entry idx at an intensity; with register 0 bit 2 clear only each component's lowest bit shows (GPGX). */
static inline uint32_t colour(const rg__gen_vdp *v, unsigned idx, unsigned inten)
{
    unsigned c = v->cram[idx & 63u];
    if (!(v->reg[0] & 4u))
        c &= 0x0222u;
    unsigned lv[3] = {(c >> 1) & 7u, (c >> 5) & 7u, (c >> 9) & 7u};
    for (unsigned k = 0; k < 3; k++)
        lv[k] = inten == SHADOW ? lv[k] : inten == NORMAL ? 2u * lv[k] : lv[k] + 7u;
    return (uint32_t)(level_rb(lv[0]) << 16 | level_g(lv[1]) << 8 | level_rb(lv[2]));
}

void rg__gen_field_start(rg__gen_vdp *v)
{
    unsigned il = (v->reg[12] & 2u) ? RG__GEN_LF_INTERLACE : 0u;
    if (il != (v->lflags & RG__GEN_LF_INTERLACE)) {
        unsigned im2 = (v->reg[12] & 6u) == 6u ? RG__GEN_LF_IM2 : 0u;
        v->lflags = (uint8_t)((v->lflags & ~(RG__GEN_LF_INTERLACE | RG__GEN_LF_IM2)) | il | im2);
        v->odd = il ? 1u : 0u;
    }
    if (v->lflags & RG__GEN_LF_INTERLACE)
        v->odd ^= 1u;
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

/* Shadow/highlight (register 12 bit 3), dot by dot as Genesis Plus GX merges the layers: a dot is shadowed unless
 * plane A or B has its priority bit there (a transparent dot's too); a sprite dot shows over the planes when it has
 * priority or the planes' dot has none, and is then normal when it has priority, else as the planes' dot; sprite
 * colours 14 and 15 of palette 3 are operators (not drawn: 14 raises the dot under them one step, shadow to normal
 * to highlight, 15 shadows it), colour 14 of palettes 0-2 is always normal. idx gets the CRAM index (0: the
 * backdrop), inten the intensity. */
static void merge_sh(const uint8_t *a, const uint8_t *b, const uint8_t *s, unsigned w, const uint32_t pal[3][64],
                     uint32_t *dst)
{
    for (unsigned x = 0; x < w; x++) {
        unsigned A = a[x], B = b[x], S = s[x];
        unsigned bg;
        if (A & 0x80u)
            bg = (A & 15u) ? A : B;
        else if (B & 0x80u)
            bg = (B & 15u) ? B : A;
        else
            bg = (A & 15u) ? A : B;
        if (!(bg & 15u))
            bg = 0;
        unsigned inten = ((A | B) & 0x80u) ? NORMAL : SHADOW, idx = bg & 0x3Fu;
        if ((S & 15u) && ((S & 0x80u) || !(bg & 0x80u))) {
            unsigned si = S & 0x3Fu;
            if (si == 0x3Eu)
                inten = inten == SHADOW ? NORMAL : HIGHLIGHT;
            else if (si == 0x3Fu)
                inten = SHADOW;
            else {
                idx = si;
                if ((si & 15u) == 14u || (S & 0x80u))
                    inten = NORMAL;
            }
        }
        dst[x] = pal[inten][idx];
    }
}

/* Planes B and A and the window of line y into b and a (16 bytes of room either side). */
static ALWAYS_INLINE void draw_planes(const rg__gen_vdp *v, uint8_t *a, uint8_t *b, unsigned y, int wide, line_mode lm)
{
    unsigned sw = wide ? 20u : 16u;
    /* horizontal scroll: full screen, per cell (8 lines), per line; mode 1 repeats the first 8 lines */
    static const unsigned k_hmask[4] = {0u, 7u, 0xF8u, 0xFFu};
    unsigned hbase = (v->reg[13] & 0x3Fu) << 10;
    unsigned hline = y & k_hmask[v->reg[11] & 3u];
    unsigned hsa = vram_word(v, hbase + hline * 4u) & 0x3FFu, hsb = vram_word(v, hbase + hline * 4u + 2u) & 0x3FFu;
    unsigned vfirst = wide ? (unsigned)(v->vsram[38] & v->vsram[39]) : 0u;
    draw_plane(v, b, y, (v->reg[4] & 7u) << 13, hsb, 1, 0, sw, vfirst, lm);
    /* the window: whole lines above / below register 18's row, else register 17's 2-cell columns left / right */
    unsigned wv = (v->reg[18] & 0x1Fu) * 8u, hp = v->reg[17] & 0x1Fu;
    int right = (v->reg[17] & 0x80u) != 0;
    unsigned a0 = 0, a1 = sw, w0 = 0, w1 = 0; /* plane A's and the window's columns */
    if (((v->reg[18] & 0x80u) != 0) == (y >= wv)) {
        a1 = 0;
        w1 = sw;
    } else if (hp == 0) {
        if (right) {
            a1 = 0;
            w1 = sw;
        }
    } else if (hp > sw) {
        if (!right) {
            a1 = 0;
            w1 = sw;
        }
    } else if (right) {
        a1 = hp;
        w0 = hp;
        w1 = sw;
    } else {
        a0 = hp;
        w1 = hp;
    }
    if (a0 < a1)
        draw_plane(v, a, y, (v->reg[2] & 0x38u) << 10, hsa, 0, a0, a1, vfirst, lm);
    if (w0 < w1)
        draw_window(v, a, w0, w1, y, wide, lm);
}

void rg__gen_render_line(rg__gen_machine *m, unsigned y)
{
    rg__gen_vdp *v = &m->st.vdp;
    int wide = (v->reg[12] & 1u) != 0, sh = (v->reg[12] & 8u) != 0;
    unsigned w = wide ? 320u : 256u;
    uint32_t *dst = m->fb + (size_t)y * RG__GEN_WIDTH;
    /* colours: the 64 of CRAM in shadow, normal and highlight, with colour 0 of each palette the backdrop (kept
     * while CRAM, the backdrop register and the colour mode stay as they were) */
    rg__gen_sprite_cache *c = &m->sprites;
    unsigned back_idx = v->reg[7] & 0x3Fu, pal_mode = v->reg[0] & 4u;
    if (!c->pal_valid || c->back_idx != back_idx || c->pal_mode != pal_mode ||
        memcmp(c->cram, v->cram, sizeof c->cram)) {
        memcpy(c->cram, v->cram, sizeof c->cram);
        c->back_idx = (uint8_t)back_idx;
        c->pal_mode = (uint8_t)pal_mode;
        c->pal_valid = 1;
        for (unsigned k = 0; k < 3; k++)
            for (unsigned i = 0; i < 64; i++)
                c->pal[k][i] = colour(v, (i & 15u) ? i : back_idx, k);
    }
    const uint32_t *pal = c->pal[NORMAL];
    for (unsigned x = w; x < RG__GEN_WIDTH; x++) /* H32: the rest of the row is black, whatever was drawn before */
        dst[x] = 0;
    if (!(v->reg[1] & 0x40u)) {
        for (unsigned x = 0; x < w; x++)
            dst[x] = pal[0];
        return;
    }
    /* the planes' lines with 16 bytes of room either side for the fine scroll, the sprites' with 32 */
    uint8_t abuf[16 + RG__GEN_WIDTH + 16], bbuf[16 + RG__GEN_WIDTH + 16];
    uint8_t sbuf[SPR_MARGIN + RG__GEN_WIDTH + SPR_MARGIN];
    uint8_t *a = abuf + 16, *b = bbuf + 16, *s = sbuf + SPR_MARGIN;
    memset(sbuf, 0, SPR_MARGIN + w + SPR_MARGIN);
    if (!(v->lflags & RG__GEN_LF_IM2) && !sh) /* the common case, with the modes known to the compiler */
        draw_planes(v, a, b, y, wide, (line_mode){0, 0, 0});
    else
        draw_planes(v, a, b, y, wide, (line_mode){(v->lflags & RG__GEN_LF_IM2) != 0, v->odd & 1u, sh});
    draw_sprites(m, s, w, y);
    if (y + 1u < v->view_h)
        rg__gen_sprite_parse(m, y + 1u);
    if (sh) {
        merge_sh(a, b, s, w, (const uint32_t(*)[64])c->pal, dst);
    } else {
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
    if (v->reg[0] & 0x20u) /* the left column blank: the backdrop, at normal intensity */
        for (unsigned x = 0; x < 8u; x++)
            dst[x] = pal[0];
}
