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

static void draw_plane(const rg__gen_vdp *v, uint8_t *out, unsigned w, unsigned y, unsigned base, unsigned hs,
                       int is_b)
{
    unsigned pw = k_plane_cells[v->reg[16] & 3u], ph = k_plane_cells[(v->reg[16] >> 4) & 3u];
    unsigned col_mode = (v->reg[11] & 4u) != 0;
    if (!col_mode) { /* one vertical scroll for the line: a name-table entry and a pattern row per cell */
        unsigned py = (y + v->vsram[is_b]) & (ph * 8u - 1u), prow = py & 7u;
        unsigned row_base = base + (py >> 3) * pw * 2u, wmask = pw * 8u - 1u;
        unsigned px = (0u - hs) & wmask;
        for (unsigned x = 0; x < w;) {
            uint16_t e = vram_word(v, row_base + (px >> 3) * 2u);
            unsigned r = (e & 0x1000u) ? 7u - prow : prow;
            const uint8_t *pat = &v->vram[(e & 0x7FFu) * 32u + r * 4u]; /* 4 bytes, at most $FFFC-$FFFF */
            uint8_t attr = (uint8_t)((e >> 8 & 0x80u) | ((e >> 13) & 3u) << 4);
            unsigned flip = (e & 0x0800u) ? 7u : 0u, c = px & 7u;
            for (; c < 8u && x < w; c++, x++) {
                unsigned col = c ^ flip;
                uint8_t b = pat[col >> 1];
                unsigned p = (col & 1u) ? b & 15u : (unsigned)b >> 4;
                out[x] = p ? (uint8_t)(attr | p) : 0;
            }
            px = (px + 8u - (px & 7u)) & wmask;
        }
        return;
    }
    for (unsigned x = 0; x < w; x++) {
        unsigned vs = col_mode ? v->vsram[((x >> 4) * 2u + (unsigned)is_b) % 40u] : v->vsram[is_b];
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

static void draw_sprites(rg__gen_vdp *v, uint8_t *out, unsigned w, unsigned y, int wide)
{
    unsigned base = (v->reg[5] & (wide ? 0x7Eu : 0x7Fu)) << 9;
    unsigned max = wide ? 80u : 64u, limit = wide ? 20u : 16u;
    unsigned s = 0, on_line = 0;
    int masked = 0;
    for (unsigned n = 0; n < max; n++) {
        unsigned e = base + s * 8u;
        int sy = (int)(vram_word(v, e) & 0x3FFu) - 128;
        unsigned size = v->vram[(e + 2u) & 0xFFFFu];
        unsigned link = v->vram[(e + 3u) & 0xFFFFu] & 0x7Fu;
        unsigned hcells = ((size >> 2) & 3u) + 1u, vcells = (size & 3u) + 1u;
        if ((int)y >= sy && (int)y < sy + (int)vcells * 8) {
            if (++on_line > limit) {
                v->sprite_ovf = 1;
                break;
            }
            uint16_t attr = vram_word(v, e + 4u);
            unsigned rawx = vram_word(v, e + 6u) & 0x1FFu;
            if (rawx == 0 && on_line > 1)
                masked = 1; /* a sprite at x = 0 hides the lower-priority sprites on its line */
            if (!masked) {
                unsigned r = y - (unsigned)sy;
                if (attr & 0x1000u)
                    r = vcells * 8u - 1u - r;
                int sx = (int)rawx - 128;
                for (unsigned cx = 0; cx < hcells; cx++) {
                    unsigned tcol = (attr & 0x0800u) ? hcells - 1u - cx : cx;
                    uint16_t te = (uint16_t)((attr & 0xF800u) |
                                             (((attr & 0x7FFu) + tcol * vcells + (r >> 3)) & 0x7FFu));
                    for (unsigned px = 0; px < 8; px++) {
                        int X = sx + (int)(cx * 8u + px);
                        if (X < 0 || X >= (int)w)
                            continue;
                        /* tile_pixel flips within the cell; the row is already flipped, so undo its flip */
                        uint8_t p = tile_pixel(v, (uint16_t)(te & ~0x1000u), px, r & 7u);
                        if (!p)
                            continue;
                        if (out[X])
                            v->sprite_col = 1;
                        else
                            out[X] = p;
                    }
                }
            }
        }
        if (link == 0 || link >= max)
            break;
        s = link;
    }
}

static inline uint32_t colour(const rg__gen_vdp *v, unsigned idx)
{
    unsigned c = v->cram[idx & 63u];
    unsigned r = (c >> 1) & 7u, g = (c >> 5) & 7u, b = (c >> 9) & 7u;
    r = r << 5 | r << 2 | r >> 1;
    g = g << 5 | g << 2 | g >> 1;
    b = b << 5 | b << 2 | b >> 1;
    return (uint32_t)(r << 16 | g << 8 | b);
}

void rg__gen_sprite_line(rg__gen_machine *m, unsigned y)
{
    rg__gen_vdp *v = &m->st.vdp;
    if (!(v->reg[1] & 0x40u))
        return;
    int wide = (v->reg[12] & 1u) != 0;
    uint8_t s[320];
    memset(s, 0, sizeof s);
    draw_sprites(v, s, wide ? 320u : 256u, y, wide);
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
    uint8_t a[320], b[320], s[320];
    memset(s, 0, sizeof s);
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
    draw_sprites(v, s, w, y, wide);
    uint32_t pal[64];
    for (unsigned i = 0; i < 64; i++)
        pal[i] = colour(v, i);
    for (unsigned x = 0; x < w; x++) {
        uint8_t p;
        if (s[x] & 0x80u)
            p = s[x];
        else if (a[x] & 0x80u)
            p = a[x];
        else if (b[x] & 0x80u)
            p = b[x];
        else if (s[x])
            p = s[x];
        else if (a[x])
            p = a[x];
        else
            p = b[x];
        dst[x] = (p & 15u) ? pal[p & 0x3Fu] : back;
    }
}
