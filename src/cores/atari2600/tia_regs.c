/* TIA register writes and reads: object positions, HMOVE, vertical delay, collisions, input ports.
 *
 * Positions and motion follow Stella 3.9.3's model so that pictures and RAM compare equal to it: a write takes
 * effect after a per-register delay (the picture is drawn that far ahead first); RESPx/RESMx/RESBL place the object
 * a few pixels after the current beam position; HMOVE applies its motion at once when issued in horizontal blank
 * (+8 for the extended blank, minus the motion clocks), or at the start of the next line when issued late; motion
 * clocks still running when HMxx or RESxx is written are accounted for. */
#include "cores/atari2600/a26.h"

#include <string.h>

enum {
    VSYNC = 0x00, VBLANK, WSYNC, RSYNC, NUSIZ0, NUSIZ1, COLUP0, COLUP1, COLUPF, COLUBK, CTRLPF, REFP0, REFP1,
    PF0, PF1, PF2, RESP0, RESP1, RESM0, RESM1, RESBL, AUDC0, AUDC1, AUDF0, AUDF1, AUDV0, AUDV1, GRP0, GRP1,
    ENAM0, ENAM1, ENABL, HMP0, HMP1, HMM0, HMM1, HMBL, VDELP0, VDELP1, VDELBL, RESMP0, RESMP1, HMOVE, HMCLR,
    CXCLR
};

/* Colour clocks a write is late (the picture is drawn up to clock + delay with the old value); -1: the
 * playfield's delay, which depends on the CPU cycle within the 4-pixel playfield step. */
static const int8_t k_delay[64] = {
    0, 1, 0, 0, 8, 8, 0, 0, 0, 0, 0, 1, 1, -1, -1, -1, /* VSYNC .. PF2 */
    0, 0, 8, 8, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1,    /* RESP0 .. ENABL */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0,             /* HMP0 .. CXCLR */
};

/* Writes that change nothing the picture or the collisions depend on need no drawing first: 2 = none (WSYNC, RSYNC,
 * audio, unused addresses), 1 = colours (pixels only: skipped when nothing is drawn). The picture is still brought
 * up to the last TIA access at the end of a run, as Stella leaves it. */
static const uint8_t k_lazy[64] = {
    0, 0, 2, 2, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, /* VSYNC .. PF2 */
    0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, /* RESP0 .. ENABL */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, /* HMP0 .. $2F */
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
};

/* Object index of HMP0, HMP1, HMM0, HMM1, HMBL. */
static const uint8_t k_hm_obj[5] = {RG__TIA_P0, RG__TIA_P1, RG__TIA_M0, RG__TIA_M1, RG__TIA_BL};

/* x modulo 160 (0..159). Positions are one step off the range at most (a move, a copy's offset): a compare and an
 * add or subtract; the division only for anything further. */
static int wrap160(int x)
{
    if (x >= 160)
        x -= 160;
    else if (x < 0)
        x += 160;
    if ((unsigned)x >= 160u) {
        x %= 160;
        if (x < 0)
            x += 160;
    }
    return x;
}

static int min_int(int a, int b)
{
    return a < b ? a : b;
}

/* Pixel position of the beam: -68..-1 in horizontal blank, 0..159 visible. */
static int hpos_of(const rg__a26_tia *t, int32_t clock)
{
    return (int)((clock - t->frame_start) % RG__TIA_LINE) - RG__TIA_HBLANK;
}

/* The bits of a byte in reverse order (players_changed runs on every GRP0/GRP1 write). */
static const uint8_t k_reverse8[256] = {
    0x00, 0x80, 0x40, 0xC0, 0x20, 0xA0, 0x60, 0xE0, 0x10, 0x90, 0x50, 0xD0, 0x30, 0xB0, 0x70, 0xF0,
    0x08, 0x88, 0x48, 0xC8, 0x28, 0xA8, 0x68, 0xE8, 0x18, 0x98, 0x58, 0xD8, 0x38, 0xB8, 0x78, 0xF8,
    0x04, 0x84, 0x44, 0xC4, 0x24, 0xA4, 0x64, 0xE4, 0x14, 0x94, 0x54, 0xD4, 0x34, 0xB4, 0x74, 0xF4,
    0x0C, 0x8C, 0x4C, 0xCC, 0x2C, 0xAC, 0x6C, 0xEC, 0x1C, 0x9C, 0x5C, 0xDC, 0x3C, 0xBC, 0x7C, 0xFC,
    0x02, 0x82, 0x42, 0xC2, 0x22, 0xA2, 0x62, 0xE2, 0x12, 0x92, 0x52, 0xD2, 0x32, 0xB2, 0x72, 0xF2,
    0x0A, 0x8A, 0x4A, 0xCA, 0x2A, 0xAA, 0x6A, 0xEA, 0x1A, 0x9A, 0x5A, 0xDA, 0x3A, 0xBA, 0x7A, 0xFA,
    0x06, 0x86, 0x46, 0xC6, 0x26, 0xA6, 0x66, 0xE6, 0x16, 0x96, 0x56, 0xD6, 0x36, 0xB6, 0x76, 0xF6,
    0x0E, 0x8E, 0x4E, 0xCE, 0x2E, 0xAE, 0x6E, 0xEE, 0x1E, 0x9E, 0x5E, 0xDE, 0x3E, 0xBE, 0x7E, 0xFE,
    0x01, 0x81, 0x41, 0xC1, 0x21, 0xA1, 0x61, 0xE1, 0x11, 0x91, 0x51, 0xD1, 0x31, 0xB1, 0x71, 0xF1,
    0x09, 0x89, 0x49, 0xC9, 0x29, 0xA9, 0x69, 0xE9, 0x19, 0x99, 0x59, 0xD9, 0x39, 0xB9, 0x79, 0xF9,
    0x05, 0x85, 0x45, 0xC5, 0x25, 0xA5, 0x65, 0xE5, 0x15, 0x95, 0x55, 0xD5, 0x35, 0xB5, 0x75, 0xF5,
    0x0D, 0x8D, 0x4D, 0xCD, 0x2D, 0xAD, 0x6D, 0xED, 0x1D, 0x9D, 0x5D, 0xDD, 0x3D, 0xBD, 0x7D, 0xFD,
    0x03, 0x83, 0x43, 0xC3, 0x23, 0xA3, 0x63, 0xE3, 0x13, 0x93, 0x53, 0xD3, 0x33, 0xB3, 0x73, 0xF3,
    0x0B, 0x8B, 0x4B, 0xCB, 0x2B, 0xAB, 0x6B, 0xEB, 0x1B, 0x9B, 0x5B, 0xDB, 0x3B, 0xBB, 0x7B, 0xFB,
    0x07, 0x87, 0x47, 0xC7, 0x27, 0xA7, 0x67, 0xE7, 0x17, 0x97, 0x57, 0xD7, 0x37, 0xB7, 0x77, 0xF7,
    0x0F, 0x8F, 0x4F, 0xCF, 0x2F, 0xAF, 0x6F, 0xEF, 0x1F, 0x9F, 0x5F, 0xDF, 0x3F, 0xBF, 0x7F, 0xFF,
};

static uint8_t reverse8(uint8_t v)
{
    return k_reverse8[v];
}

/* --- derived values */

/* The enable bits only say whether an object is drawn: its coverage bitmap does not depend on them, so they never
 * mark it for rebuilding (a bitmap left dirty while its object was off is rebuilt when it is next drawn). */
static void set_enabled(rg__a26_tia *t, int obj, int on)
{
    uint8_t bit = (uint8_t)(1u << obj);
    t->enabled = on ? (uint8_t)(t->enabled | bit) : (uint8_t)(t->enabled & ~bit);
}

/* A player's bitmap is rebuilt only when the graphics it shows change (games write GRP0/GRP1 every line, and with
 * vertical delay a write to one player's register changes the other's shown graphics or nothing). */
static void players_changed(rg__a26_tia *t)
{
    for (int p = 0; p < 2; p++) {
        uint8_t g = t->vdelp[p] ? t->dgrp[p] : t->grp[p];
        /* bit 0 is the leftmost pixel: GRP bit 7 first unless reflected */
        uint8_t cur = t->refp[p] ? g : reverse8(g);
        if (cur != t->cur_grp[p]) {
            t->cur_grp[p] = cur;
            t->dirty |= (uint8_t)(1u << (p ? RG__TIA_P1 : RG__TIA_P0));
        }
        set_enabled(t, p ? RG__TIA_P1 : RG__TIA_P0, g != 0);
    }
}

static void missile_changed(rg__a26_tia *t, int i)
{
    set_enabled(t, i ? RG__TIA_M1 : RG__TIA_M0, (t->enam[i] & 2u) && !(t->resmp[i] & 2u));
}

static void ball_changed(rg__a26_tia *t)
{
    set_enabled(t, RG__TIA_BL, ((t->vdelbl ? t->denabl : t->enabl) & 2u) != 0);
}

static void playfield_changed(rg__a26_tia *t)
{
    uint32_t bits = (uint32_t)(t->pf[0] >> 4) | (uint32_t)reverse8(t->pf[1]) << 4 | (uint32_t)t->pf[2] << 12;
    if (bits != t->pf_bits) {
        t->pf_bits = bits;
        t->dirty |= 1u << RG__TIA_PF;
    }
    set_enabled(t, RG__TIA_PF, bits != 0);
}

void rg__tia_reset(rg__a26_tia *t)
{
    memset(t, 0, sizeof *t);
    t->vsync_finish = INT32_MAX;
    t->hmove_pos = RG__TIA_NONE;
    t->prev_hmove_pos = RG__TIA_NONE;
    t->inpt45[0] = t->inpt45[1] = 0x80;
    t->dirty = 0x3F;
    rg__tia_audio_reset(t);
}

void rg__tia_drop_cache(rg__a26_tia *t)
{
    memset(t->cover, 0, sizeof t->cover);
    t->dirty = 0x3F;
}

void rg__tia_rederive(rg__a26_tia *t)
{
    players_changed(t);
    missile_changed(t, 0);
    missile_changed(t, 1);
    ball_changed(t);
    playfield_changed(t);
    rg__tia_drop_cache(t);
}

/* --- motion */

/* RESxx while an HMOVE's motion clocks still run on this line. */
static int active_motion(const rg__a26_tia *t, int hpos, int pos, int motion)
{
    if (hpos < min_int(t->hmove_pos + 6 + 16 * 4, 7)) {
        int passed = (hpos - (t->hmove_pos + 4)) >> 2;
        pos += 8;
        if (motion - passed > 0)
            pos -= motion - passed;
    }
    return wrap160(pos);
}

/* RESxx early in the line after a late HMOVE whose clocks reach into it. */
static int previous_motion(const rg__a26_tia *t, int hpos, int pos, uint8_t hm)
{
    if (t->prev_hmove_pos != RG__TIA_NONE) {
        int clocks = (hm ^ 0x80) >> 4;
        if (hpos <= t->prev_hmove_pos - RG__TIA_LINE + 5 + clocks * 4) {
            int passed = (hpos - (t->prev_hmove_pos - RG__TIA_LINE + 6)) >> 2;
            pos -= clocks - passed;
        }
    }
    return wrap160(pos);
}

static void write_hm(rg__a26_tia *t, int obj, uint8_t value, int hpos)
{
    value &= 0xF0u;
    if (t->hm[obj] == value)
        return;
    if (t->hmove_pos != RG__TIA_NONE && hpos < min_int(t->hmove_pos + 6 + t->motion[obj] * 4, 7)) {
        int now = (value ^ 0x80) >> 4;
        if (now > t->motion[obj] || hpos <= min_int(t->hmove_pos + 6 + now * 4, 7)) {
            t->pos[obj] = (int16_t)wrap160(t->pos[obj] - (now - t->motion[obj]));
            t->motion[obj] = (int8_t)now;
        } else {
            /* too late to stop: the counter runs through all 15 clocks, and further (17 per line) when the new
             * value never matches it */
            t->pos[obj] = (int16_t)wrap160(t->pos[obj] - (15 - t->motion[obj]));
            t->motion[obj] = 15;
            if (value != 0x70 && value != 0x80)
                t->mmr[obj] = 1;
        }
        t->dirty |= (uint8_t)(1u << obj);
    }
    t->hm[obj] = value;
}

static void hmove(rg__a26_tia *t, int32_t clock)
{
    int col = (int)((clock - t->frame_start) % RG__TIA_LINE);
    int hpos = col - RG__TIA_HBLANK, cycle = col / 3;
    t->hmove_pos = hpos;
    t->hmove_blank = cycle <= 20 || cycle == 75;
    /* the bitmaps depend on the positions (and missile 0's on its "more motion" flag): only the objects whose
     * position or flag changes are marked for rebuilding (games issue HMOVE on every line, mostly with no motion) */
    uint8_t moved = t->mmr[RG__TIA_M0] ? (uint8_t)(1u << RG__TIA_M0) : 0u;
    if (col < 17 * 4) { /* undo clocks an earlier "more motion" added */
        int fix = 17 - (col + 7) / 4;
        for (int o = 0; o < 5; o++)
            if (t->mmr[o]) {
                t->pos[o] = (int16_t)wrap160(t->pos[o] + fix);
                moved |= (uint8_t)(1u << o);
            }
    }
    memset(t->mmr, 0, sizeof t->mmr);
    if (hpos >= -5 && hpos < 97) { /* no effect in the visible part */
        memset(t->motion, 0, sizeof t->motion);
        t->hmove_blank = 0;
        t->hmove_pos = RG__TIA_NONE;
        t->dirty |= moved;
        return;
    }
    for (int o = 0; o < 5; o++) {
        int m = (t->hm[o] ^ 0x80) >> 4;
        if (hpos >= 97 && hpos < 151) { /* clocks lost while the objects are drawn anyway */
            m -= (160 - hpos - 6) >> 2;
            if (m < 0)
                m = 0;
        }
        if (hpos >= -56 && hpos < -5) { /* horizontal blank ends before all clocks are given */
            int most = (7 - (hpos + 5)) >> 2;
            if (m > most)
                m = most;
        }
        t->motion[o] = (int8_t)m;
        if ((hpos < -5 || hpos >= 157) && m != 8) {
            t->pos[o] = (int16_t)wrap160(t->pos[o] + 8 - m);
            moved |= (uint8_t)(1u << o);
        }
    }
    /* the players' bitmaps also show the suppressed first copy */
    if (t->suppress[0] | t->suppress[1])
        moved |= 1u << RG__TIA_P0 | 1u << RG__TIA_P1;
    t->suppress[0] = t->suppress[1] = 0;
    t->dirty |= moved;
}

void rg__tia_line_start(rg__a26_tia *t)
{
    uint8_t moved = 0; /* the objects whose position changes */
    t->prev_hmove_pos = RG__TIA_NONE;
    if (t->hmove_pos != RG__TIA_NONE) {
        if (t->hmove_pos >= 97 && t->hmove_pos < 157) {
            for (int o = 0; o < 5; o++)
                if (t->motion[o]) {
                    t->pos[o] = (int16_t)wrap160(t->pos[o] - t->motion[o]);
                    moved |= (uint8_t)(1u << o);
                }
            t->prev_hmove_pos = t->hmove_pos;
        }
        t->hmove_pos = RG__TIA_NONE;
    }
    if (t->mmr[0] | t->mmr[1] | t->mmr[2] | t->mmr[3] | t->mmr[4])
        for (int o = 0; o < 5; o++)
            if (t->mmr[o]) {
                t->pos[o] = (int16_t)wrap160(t->pos[o] - 17);
                moved |= (uint8_t)(1u << o);
            }
    t->dirty |= moved;
    if (t->pf_reflect != (t->ctrlpf & 1u)) {
        t->pf_reflect = t->ctrlpf & 1u;
        t->dirty |= 1u << RG__TIA_PF;
    }
}

void rg__tia_line_end(rg__a26_tia *t)
{
    if (t->suppress[0] | t->suppress[1]) {
        t->suppress[0] = t->suppress[1] = 0;
        t->dirty |= 1u << RG__TIA_P0 | 1u << RG__TIA_P1;
    }
}

/* Where a reset puts the player relative to its copies on this line: 1 inside the pixels of a copy, -1 in the
 * four clocks before one, 0 elsewhere. */
static int reset_when(uint8_t nusiz, int old, int now)
{
    static const uint8_t k_copies[8] = {0x01, 0x03, 0x05, 0x07, 0x11, 0x01, 0x15, 0x01}; /* bit k: copy at 16 k */
    int mode = nusiz & 7, width = mode == 5 ? 16 : mode == 7 ? 32 : 8;
    for (int k = 0; k < 5; k++) {
        if (!(k_copies[mode] >> k & 1))
            continue;
        int d = wrap160(now - (old + 16 * k));
        if (d < 4)
            return -1;
        if (d < 4 + width)
            return 1;
    }
    return 0;
}

static void reset_player(rg__a26_machine *m, int p, int32_t clock)
{
    rg__a26_tia *t = &m->st.tia;
    int obj = p ? RG__TIA_P1 : RG__TIA_P0, hpos = hpos_of(t, clock), now;
    if (t->hmove_pos != RG__TIA_NONE)
        now = active_motion(t, hpos, hpos < 7 ? 3 : wrap160(hpos + 5), t->motion[obj]);
    else
        now = previous_motion(t, hpos, hpos < -2 ? 3 : wrap160(hpos + 5), t->hm[obj]);
    if (now == t->pos[obj])
        return;
    int when = reset_when(t->nusiz[p], t->pos[obj], now);
    if (when == 1) /* the copy being drawn is finished first */
        rg__tia_update(m, clock + 11);
    t->suppress[p] = when != -1;
    t->pos[obj] = (int16_t)now;
    t->dirty |= (uint8_t)(1u << obj);
}

static void reset_missile_or_ball(rg__a26_tia *t, int obj, int32_t clock)
{
    int hpos = hpos_of(t, clock), now;
    if (t->hmove_pos != RG__TIA_NONE)
        now = active_motion(t, hpos, hpos < 7 ? 2 : wrap160(hpos + 4), t->motion[obj]);
    else
        now = previous_motion(t, hpos, hpos < -1 ? 2 : wrap160(hpos + 4), t->hm[obj]);
    if (now != t->pos[obj]) {
        t->pos[obj] = (int16_t)now;
        t->dirty |= (uint8_t)(1u << obj);
    }
}

static void write_resmp(rg__a26_tia *t, int i, uint8_t value)
{
    int pl = i ? RG__TIA_P1 : RG__TIA_P0, mi = i ? RG__TIA_M1 : RG__TIA_M0;
    if ((t->resmp[i] & 2u) && !(value & 2u)) { /* released: the missile sits in the middle of the player */
        int mode = t->nusiz[i] & 7, middle = mode == 5 ? 8 : mode == 7 ? 16 : 4;
        int pos = t->pos[pl] + middle;
        if (t->hmove_pos != RG__TIA_NONE)
            pos += t->motion[pl] - t->motion[mi];
        t->pos[mi] = (int16_t)wrap160(pos);
        t->dirty |= (uint8_t)(1u << mi);
    }
    t->resmp[i] = value & 2u;
    missile_changed(t, i);
}

static void write_vblank(rg__a26_machine *m, uint8_t value)
{
    rg__a26_tia *t = &m->st.tia;
    if (t->dump && !(value & 0x80u))
        t->dump_released = m->st.cycles;
    t->dump = (value & 0x80u) != 0;
    if (!(t->vblank & 0x40u) && (value & 0x40u))
        t->inpt45[0] = t->inpt45[1] = 0x80;
    t->vblank = value;
}

static void write_vsync(rg__a26_machine *m, uint8_t value, int32_t clock)
{
    rg__a26_tia *t = &m->st.tia;
    t->vsync = value;
    if (value & 2u) {
        t->vsync_finish = clock + RG__TIA_LINE;
    } else if (clock >= t->vsync_finish) {
        /* VSYNC was on for a line at least: the frame ends after this instruction */
        t->vsync_finish = INT32_MAX;
        m->budget = 0;
        m->st.partial = 0;
    }
}

void rg__tia_write(rg__a26_machine *m, uint16_t addr, uint8_t value)
{
    rg__a26_tia *t = &m->st.tia;
    unsigned reg = addr & 0x3Fu;
    int32_t clock = (int32_t)(m->st.cycles * 3u);
    int delay = k_delay[reg];
    if (delay < 0) /* the playfield's: by the CPU cycle within the line modulo 4 */
        delay = rg__tia_pf_delay(t, m->st.cycles);
    m->tia_clock = clock + delay;
    if (k_lazy[reg] == 0 || (k_lazy[reg] == 1 && m->video))
        rg__tia_update(m, clock + delay);
    if (clock - t->frame_start >= (int32_t)m->max_lines * RG__TIA_LINE) { /* no VSYNC in time */
        m->budget = 0;
        m->st.partial = 0;
    }
    switch (reg) {
    case VSYNC: write_vsync(m, value, clock); break;
    case VBLANK: write_vblank(m, value); break;
    case WSYNC: {
        /* the 6507 halts only on a read cycle: the second write of a read-modify-write does not halt it */
        uint32_t phase = rg__tia_line_phase(t, m->st.cycles);
        if (phase && m->prev_write_cycle != m->st.cycles - 1u) {
            m->st.cycles += 76u - phase;
            m->write_cycle = m->st.cycles; /* the next cycle follows this write */
        }
        break;
    }
    case RSYNC: { /* Stella 3.9.3 halts the CPU until the last cycle of the line */
        uint32_t phase = rg__tia_line_phase(t, m->st.cycles);
        m->st.cycles += 75u - phase;
        break;
    }
    case NUSIZ0:
    case NUSIZ1:
        t->nusiz[reg - NUSIZ0] = value;
        t->dirty |= reg == NUSIZ0 ? (1u << RG__TIA_P0 | 1u << RG__TIA_M0) : (1u << RG__TIA_P1 | 1u << RG__TIA_M1);
        break;
    case COLUP0: case COLUP1: case COLUPF: case COLUBK:
        if (m->acc_x1 > m->acc_x0 && t->colu[reg - COLUP0] != (value & 0xFEu))
            rg__tia_flush(m); /* the pixels drawn so far in the old colour */
        t->colu[reg - COLUP0] = value & 0xFEu;
        break;
    case CTRLPF:
        if (m->acc_x1 > m->acc_x0 && (t->ctrlpf & 6u) != (value & 6u))
            rg__tia_flush(m); /* score colours and priority */
        t->ctrlpf = value;
        t->dirty |= 1u << RG__TIA_BL;
        if (hpos_of(t, clock) < 79 && t->pf_reflect != (value & 1u)) { /* later: from the next line on */
            t->pf_reflect = value & 1u;
            t->dirty |= 1u << RG__TIA_PF;
        }
        break;
    case REFP0: case REFP1: t->refp[reg - REFP0] = value & 8u; players_changed(t); break;
    case PF0: case PF1: case PF2: t->pf[reg - PF0] = value; playfield_changed(t); break;
    case RESP0: case RESP1: reset_player(m, reg - RESP0, clock); break;
    case RESM0: reset_missile_or_ball(t, RG__TIA_M0, clock); break;
    case RESM1: reset_missile_or_ball(t, RG__TIA_M1, clock); break;
    case RESBL: reset_missile_or_ball(t, RG__TIA_BL, clock); break;
    case AUDC0: case AUDC1: case AUDF0: case AUDF1: case AUDV0: case AUDV1:
        rg__tia_audio_write(m, reg, value);
        break;
    case GRP0:
        t->grp[0] = value;
        t->dgrp[1] = t->grp[1];
        players_changed(t);
        break;
    case GRP1:
        t->grp[1] = value;
        t->dgrp[0] = t->grp[0];
        t->denabl = t->enabl;
        players_changed(t);
        ball_changed(t);
        break;
    case ENAM0: case ENAM1: t->enam[reg - ENAM0] = value & 2u; missile_changed(t, reg - ENAM0); break;
    case ENABL: t->enabl = value & 2u; ball_changed(t); break;
    case HMP0: case HMP1: case HMM0: case HMM1: case HMBL:
        write_hm(t, k_hm_obj[reg - HMP0], value, hpos_of(t, clock));
        break;
    case VDELP0: case VDELP1: t->vdelp[reg - VDELP0] = value & 1u; players_changed(t); break;
    case VDELBL: t->vdelbl = value & 1u; ball_changed(t); break;
    case RESMP0: case RESMP1: write_resmp(t, reg - RESMP0, value); break;
    case HMOVE: hmove(t, clock); break;
    case HMCLR:
        for (int i = 0; i < 5; i++)
            write_hm(t, k_hm_obj[i], 0, hpos_of(t, clock));
        break;
    case CXCLR:
        rg__tia_flush(m); /* the pixels drawn so far latch before the clear, not after */
        t->collisions = 0;
        break;
    default: break;
    }
}

uint8_t rg__tia_read(rg__a26_machine *m, uint16_t addr)
{
    rg__a26_tia *t = &m->st.tia;
    m->tia_clock = (int32_t)(m->st.cycles * 3u);
    /* only bits 7 and 6 are driven; the others keep the last value on the bus */
    uint8_t v = m->st.databus & 0x3Fu;
    unsigned reg = addr & 0x0Fu;
    if (reg < 8) {
        /* the collisions latched up to now: the only read that needs the picture brought up to date (the inputs
         * depend on registers that writes keep current, so the catch-up waits for the next write there) */
        rg__tia_update(m, m->tia_clock);
        rg__tia_collisions(m);
        return (uint8_t)(v | ((t->collisions >> (2 * reg)) & 3u) << 6);
    }
    if (reg == 0x0C || reg == 0x0D) { /* INPT4/5: with VBLANK bit 6 a press is latched until it is cleared */
        int i = reg - 0x0C;
        uint8_t button = m->in.fire[i];
        t->inpt45[i] = (t->vblank & 0x40u) ? (uint8_t)(t->inpt45[i] & button) : button;
        return (uint8_t)(v | t->inpt45[i]);
    }
    if (reg >= 8 && reg < 12) { /* INPT0-3: paddles; a joystick grounds them (bit 7 clear) */
        int port = reg >= 10;
        if (m->paddle_port[port])
            v |= rg__a26_paddle_bit(m->st.paddles[port].resistance[reg & 1u], t->dump,
                                    m->st.cycles - t->dump_released, t->lines_last, m->fps);
    }
    return v;
}

/* --- states from outside */

static int in_range(int32_t v, int32_t lo, int32_t hi)
{
    return v >= lo && v <= hi;
}

int rg__tia_check(const rg__a26_tia *t, int32_t now)
{
    /* clocks: the frame starts within the line it began in; the drawn line is one of the frame's (the renderer
     * never goes past RG__A26_MAX_HEIGHT lines) and the last update lies within it */
    if (!in_range(t->frame_start, -(RG__TIA_LINE - 1), 0) || !in_range(t->line, 0, RG__A26_MAX_HEIGHT) ||
        t->line_clock != t->frame_start + RG__TIA_LINE * t->line ||
        !in_range(t->last_update, t->line_clock, t->line_clock + RG__TIA_LINE - 1))
        return rg__error(RG_ESTATE, "atari2600 state: the TIA's line clocks are inconsistent (frame start %ld, "
                         "line %ld at %ld, drawn to %ld)", (long)t->frame_start, (long)t->line,
                         (long)t->line_clock, (long)t->last_update);
    if ((t->hmove_pos != RG__TIA_NONE && !in_range(t->hmove_pos, -RG__TIA_HBLANK, 159)) ||
        (t->prev_hmove_pos != RG__TIA_NONE && !in_range(t->prev_hmove_pos, -RG__TIA_HBLANK, 159)))
        return rg__error(RG_ESTATE, "atari2600 state: an HMOVE position is outside the line");
    if (t->lines_last > RG__A26_LINES_MAX)
        return rg__error(RG_ESTATE, "atari2600 state: the last frame's line count %lu is above %d",
                         (unsigned long)t->lines_last, RG__A26_LINES_MAX);
    for (int o = 0; o < 5; o++)
        if (!in_range(t->pos[o], 0, 159) || !in_range(t->motion[o], 0, 15))
            return rg__error(RG_ESTATE, "atari2600 state: object %d is at %d with %d motion clocks (0..159, 0..15)",
                             o, (int)t->pos[o], (int)t->motion[o]);
    if (t->dirty & ~0x3Fu)
        return rg__error(RG_ESTATE, "atari2600 state: unknown objects marked for redrawing");
    /* the values derived from the registers must be those the registers give ("enabled" indexes tables) */
    rg__a26_tia d = *t;
    d.enabled = 0; /* rebuilt bit by bit below: a stray bit of the state's (5..7) would otherwise survive */
    players_changed(&d);
    missile_changed(&d, 0);
    missile_changed(&d, 1);
    ball_changed(&d);
    playfield_changed(&d);
    if (d.enabled != t->enabled || d.pf_bits != t->pf_bits || memcmp(d.cur_grp, t->cur_grp, sizeof d.cur_grp) != 0)
        return rg__error(RG_ESTATE, "atari2600 state: the TIA's object graphics do not match its registers");
    return rg__tia_audio_check(t, now);
}
