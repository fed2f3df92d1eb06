/* Stella 3.9.3 save states (the `Start.state` files of stable-retro's Atari integrations) converted into our
 * machine state. The layout is described in docs/atari2600.md ("Stella 3.9.3 states"): a flat little-endian stream
 * of named sections (System, M6502, M6532, TIA, TIASound, the cartridge), then the two controllers and the console
 * switches. Every field is read with a bounds check; names, booleans and ranges are checked as they are read, and
 * the finished state goes through rg__a26_state_check like any state from outside. */
#include "cores/atari2600/a26.h"

#include <string.h>

#define STELLA_VERSION "03090100state"
#define STELLA_TRUE 0xFEu  /* Stella writes booleans as these two bytes */
#define STELLA_FALSE 0x01u
#define NAME_MAX_LEN 32u

/* Stella's M6502 execution status bits. */
#define EXEC_STOP 0x01u

/* A reader over the state bytes: the first error stops it (later reads return 0) and names the field. */
typedef struct reader {
    const uint8_t *p;
    size_t len, off;
    int failed;
} reader;

static int fail(reader *r, const char *fmt, const char *what)
{
    if (!r->failed)
        rg__error(RG_ESTATE, fmt, what);
    r->failed = 1;
    return 0;
}

static const uint8_t *take(reader *r, size_t n, const char *what)
{
    if (r->failed)
        return NULL;
    if (r->len - r->off < n) {
        fail(r, "atari2600: Stella 3.9.3 state: truncated at %s", what);
        return NULL;
    }
    const uint8_t *q = r->p + r->off;
    r->off += n;
    return q;
}

static uint8_t get8(reader *r, const char *what)
{
    const uint8_t *q = take(r, 1, what);
    return q ? q[0] : 0;
}

static uint16_t get16(reader *r, const char *what)
{
    const uint8_t *q = take(r, 2, what);
    return q ? (uint16_t)(q[0] | q[1] << 8) : 0;
}

static uint32_t get32(reader *r, const char *what)
{
    const uint8_t *q = take(r, 4, what);
    return q ? (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24 : 0;
}

static int32_t get32s(reader *r, const char *what)
{
    uint32_t v = get32(r, what);
    return v <= INT32_MAX ? (int32_t)v : (int32_t)(v - 0x80000000u) - INT32_MAX - 1;
}

static int getbool(reader *r, const char *what)
{
    uint8_t v = get8(r, what);
    if (r->failed)
        return 0;
    if (v != STELLA_TRUE && v != STELLA_FALSE)
        return fail(r, "atari2600: Stella 3.9.3 state: %s is not a boolean", what);
    return v == STELLA_TRUE;
}

static void getbytes(reader *r, uint8_t *dst, size_t n, const char *what)
{
    const uint8_t *q = take(r, n, what);
    if (q)
        memcpy(dst, q, n);
    else
        memset(dst, 0, n);
}

/* A length-prefixed string that must be `want`. */
static void expect_name(reader *r, const char *want)
{
    uint32_t n = get32(r, want);
    if (r->failed)
        return;
    if (n != strlen(want)) {
        fail(r, "atari2600: Stella 3.9.3 state: the section name where '%s' belongs is wrong", want);
        return;
    }
    const uint8_t *q = take(r, n, want);
    if (q && memcmp(q, want, n) != 0)
        fail(r, "atari2600: Stella 3.9.3 state: the section name where '%s' belongs is wrong", want);
}

/* Stella's cartridge class names, by our layout. */
static const char *const k_cart_names[RG__A26_CART_COUNT] = {
    "Cartridge2K", "Cartridge4K", "CartridgeF8", "CartridgeF8SC", "CartridgeF6", "CartridgeF6SC", "CartridgeF4",
    "CartridgeF4SC", "CartridgeFE", "CartridgeE0", "Cartridge3F", "CartridgeFA", "CartridgeE7", "CartridgeCV",
    "CartridgeUA",
};

int rg__a26_stella_state_sniff(const void *src, size_t len)
{
    static const uint8_t head[4] = {sizeof STELLA_VERSION - 1, 0, 0, 0};
    const uint8_t *p = src;
    return len >= 4 + sizeof STELLA_VERSION - 1 && memcmp(p, head, 4) == 0 &&
           memcmp(p + 4, STELLA_VERSION, sizeof STELLA_VERSION - 1) == 0;
}

/* The cartridge name after the version: must be the layout this ROM runs as. */
static void read_cart_name(reader *r, rg__a26_cart_type ours)
{
    uint32_t n = get32(r, "the cartridge name");
    if (r->failed)
        return;
    if (n == 0 || n > NAME_MAX_LEN) {
        fail(r, "atari2600: Stella 3.9.3 state: %s has an impossible length", "the cartridge name");
        return;
    }
    const uint8_t *q = take(r, n, "the cartridge name");
    if (!q)
        return;
    for (int t = 0; t < RG__A26_CART_COUNT; t++)
        if (strlen(k_cart_names[t]) == n && memcmp(q, k_cart_names[t], n) == 0) {
            if (t != (int)ours) {
                rg__error(RG_ESTATE, "atari2600: Stella 3.9.3 state: it was saved with a %s cartridge; this ROM "
                          "runs as %s", k_cart_names[t] + 9, rg__a26_cart_type_name(ours));
                r->failed = 1;
            }
            return;
        }
    char name[NAME_MAX_LEN + 1];
    size_t k = 0;
    for (; k < n; k++)
        name[k] = q[k] >= 0x20 && q[k] < 0x7F ? (char)q[k] : '?';
    name[k] = '\0';
    rg__error(RG_ESTATE, "atari2600: Stella 3.9.3 state: cartridge '%s' is not one this core runs", name);
    r->failed = 1;
}

static void read_cpu(reader *r, rg__a26_state *s)
{
    expect_name(r, "M6502");
    s->cpu.a = get8(r, "A");
    s->cpu.x = get8(r, "X");
    s->cpu.y = get8(r, "Y");
    s->cpu.s = get8(r, "SP");
    (void)get8(r, "IR");           /* the last opcode: only the debugger uses it */
    s->cpu.pc = get16(r, "PC");
    static const char *const flags[7] = {"flag N", "flag V", "flag B", "flag D", "flag I", "flag notZ", "flag C"};
    int f[7];
    for (int i = 0; i < 7; i++)
        f[i] = getbool(r, flags[i]);
    /* B exists in Stella's register but not in ours (it is only in pushed bytes): not used */
    s->cpu.p = (uint8_t)(RG_M6502_U | (f[0] ? RG_M6502_N : 0) | (f[1] ? RG_M6502_V : 0) | (f[3] ? RG_M6502_D : 0) |
                         (f[4] ? RG_M6502_I : 0) | (f[5] ? 0 : RG_M6502_Z) | (f[6] ? RG_M6502_C : 0));
    uint8_t status = get8(r, "the execution status");
    if (!r->failed && (status & ~EXEC_STOP))
        fail(r, "atari2600: Stella 3.9.3 state: %s has a fatal error or interrupt bit (not a state between frames)",
             "the CPU's execution status");
    s->cpu.jammed = 0;
    /* debugger bookkeeping: access count, last addresses */
    (void)get32(r, "the access count");
    for (int i = 0; i < 4; i++)
        (void)get16(r, "a last-address field");
    for (int i = 0; i < 4; i++)
        (void)get32(r, "a source-address field");
}

static void read_riot(reader *r, rg__a26_state *s, uint32_t cycles)
{
    expect_name(r, "M6532");
    getbytes(r, s->ram, sizeof s->ram, "the RAM");
    uint32_t timer = get32(r, "the timer");
    uint32_t shift = get32(r, "the timer interval");
    uint32_t set = get32(r, "the timer's start cycle");
    rg__a26_riot *t = &s->riot;
    t->ddra = get8(r, "DDRA");
    t->ddrb = get8(r, "DDRB");
    t->outa = get8(r, "the port A output");
    t->outb = get8(r, "the port B output");
    uint8_t flags = get8(r, "the interrupt flags");
    int valid = getbool(r, "the timer flag's validity");
    t->edge_positive = (uint8_t)getbool(r, "the PA7 edge");
    uint8_t out_timer[4];
    getbytes(r, out_timer, sizeof out_timer, "the timer output table");
    if (r->failed)
        return;
    if (shift != 0 && shift != 3 && shift != 6 && shift != 10) {
        fail(r, "atari2600: Stella 3.9.3 state: %s is not 0, 3, 6 or 10", "the RIOT timer's interval shift");
        return;
    }
    if (flags & 0x3Fu) {
        fail(r, "atari2600: Stella 3.9.3 state: %s has unknown bits", "the RIOT's interrupt flag byte");
        return;
    }
    t->shift = (uint8_t)shift;
    t->timer = timer; /* range-checked with the rest by rg__a26_riot_check */
    t->timer_set = set;
    t->int_flag = flags & 0x40u;
    /* Stella keeps the timer flag as a bit that a TIMINT read sets once the count is negative (unless already
     * decided: `valid`), and that an INTIM read clears; ours keeps the cycle the flag was last cleared, and the flag
     * reads set when the count passed zero after it. So: a flag set or still to be set = cleared before the zero
     * crossing; a flag decided clear = cleared at the crossing. */
    uint32_t zero = set + timer + 1u;
    t->cleared = (flags & 0x80u) || !valid ? set : zero;
    (void)cycles;
}

/* Stella's collision bits, in the order of our read registers: CXM0P (M0P1, M0P0), CXM1P (M1P0, M1P1), CXP0FB
 * (P0PF, P0BL), CXP1FB (P1PF, P1BL), CXM0FB (M0PF, M0BL), CXM1FB (M1PF, M1BL), CXBLPF (BLPF, -), CXPPMM (P0P1,
 * M0M1); bit 7 first. Stella numbers them M0P1=0 M0P0=1 M1P0=2 M1P1=3 P0PF=4 P0BL=5 P1PF=6 P1BL=7 M0PF=8 M0BL=9
 * M1PF=10 M1BL=11 BLPF=12 P0P1=13 M0M1=14; -1: none. */
static uint16_t collisions_from_stella(uint16_t cx)
{
    static const int8_t k_bit7[8] = {0, 2, 4, 6, 8, 10, 12, 13};
    static const int8_t k_bit6[8] = {1, 3, 5, 7, 9, 11, -1, 14};
    uint16_t out = 0;
    for (int reg = 0; reg < 8; reg++) {
        if (cx >> k_bit7[reg] & 1u)
            out |= (uint16_t)(1u << (2 * reg + 1));
        if (k_bit6[reg] >= 0 && (cx >> k_bit6[reg] & 1u))
            out |= (uint16_t)(1u << (2 * reg));
    }
    return out;
}

static void read_tia(reader *r, rg__a26_state *s, int32_t now)
{
    rg__a26_tia *t = &s->tia;
    expect_name(r, "TIA");
    int32_t frame_start = get32s(r, "the frame's start clock");
    int32_t start_display = get32s(r, "the display's start clock");
    int32_t stop_display = get32s(r, "the display's stop clock");
    int32_t last_update = get32s(r, "the last update clock");
    int32_t to_line_end = get32s(r, "the clocks to the line's end");
    uint32_t lines_last = get32(r, "the last frame's line count");
    int32_t vsync_finish = get32s(r, "the VSYNC finish clock");
    (void)get8(r, "the enabled objects");     /* derived from the registers: recomputed */
    (void)get8(r, "the disabled objects");    /* the debugger's object mask */
    t->vsync = get8(r, "VSYNC");
    t->vblank = get8(r, "VBLANK");
    t->nusiz[0] = get8(r, "NUSIZ0");
    t->nusiz[1] = get8(r, "NUSIZ1");
    uint8_t color[8]; /* BK PF P0 P1 M0 M1 BL, the HMOVE blank colour */
    getbytes(r, color, sizeof color, "the colours");
    t->ctrlpf = get8(r, "CTRLPF");
    (void)get8(r, "the playfield priority");  /* derived from CTRLPF */
    t->refp[0] = getbool(r, "REFP0") ? 8u : 0u;
    t->refp[1] = getbool(r, "REFP1") ? 8u : 0u;
    uint32_t pf = get32(r, "the playfield");
    t->grp[0] = get8(r, "GRP0");
    t->grp[1] = get8(r, "GRP1");
    t->dgrp[0] = get8(r, "the delayed GRP0");
    t->dgrp[1] = get8(r, "the delayed GRP1");
    t->enam[0] = getbool(r, "ENAM0") ? 2u : 0u;
    t->enam[1] = getbool(r, "ENAM1") ? 2u : 0u;
    t->enabl = getbool(r, "ENABL") ? 2u : 0u;
    t->denabl = getbool(r, "the delayed ENABL") ? 2u : 0u;
    /* HMP0 HMP1 HMM0 HMM1 HMBL, into our object order */
    static const uint8_t k_hm_obj[5] = {RG__TIA_P0, RG__TIA_P1, RG__TIA_M0, RG__TIA_M1, RG__TIA_BL};
    for (int i = 0; i < 5; i++)
        t->hm[k_hm_obj[i]] = get8(r, "an HMxx register") & 0xF0u;
    t->vdelp[0] = getbool(r, "VDELP0") ? 1u : 0u;
    t->vdelp[1] = getbool(r, "VDELP1") ? 1u : 0u;
    t->vdelbl = getbool(r, "VDELBL") ? 1u : 0u;
    t->resmp[0] = getbool(r, "RESMP0") ? 2u : 0u;
    t->resmp[1] = getbool(r, "RESMP1") ? 2u : 0u;
    uint16_t cx = get16(r, "the collision latches");
    (void)get32(r, "the collision mask");   /* the debugger's */
    (void)get8(r, "the shown GRP0");         /* derived: recomputed */
    (void)get8(r, "the shown GRP1");
    t->dump = (uint8_t)getbool(r, "the paddle dump");
    t->dump_released = get32(r, "the paddle dump's release cycle");
    static const uint8_t k_pos_obj[5] = {RG__TIA_P0, RG__TIA_P1, RG__TIA_M0, RG__TIA_M1, RG__TIA_BL};
    uint16_t pos[5];
    uint32_t motion[5];
    for (int i = 0; i < 5; i++)
        pos[i] = get16(r, "an object position");
    for (int i = 0; i < 5; i++)
        motion[i] = get32(r, "an object's motion clocks");
    for (int i = 0; i < 4; i++)
        (void)get32(r, "an object's start clock"); /* not used by Stella's drawing either */
    uint8_t suppress0 = get8(r, "the player 0 suppression");
    uint8_t suppress1 = get8(r, "the player 1 suppression");
    int mmr[5];
    for (int i = 0; i < 5; i++)
        mmr[i] = getbool(r, "a more-motion flag");
    int32_t hmove = get32s(r, "the HMOVE position");
    int32_t prev_hmove = get32s(r, "the previous HMOVE position");
    t->hmove_blank = (uint8_t)getbool(r, "the HMOVE blank");
    t->frames = get32(r, "the frame counter");
    t->pal_frames = get32(r, "the PAL frame counter");
    expect_name(r, "TIASound");
    uint8_t snd[6]; /* AUDC0 AUDC1 AUDF0 AUDF1 AUDV0 AUDV1 */
    getbytes(r, snd, sizeof snd, "the sound registers");
    (void)get32(r, "the sound register cycle");
    if (r->failed)
        return;

    if (frame_start < -(RG__TIA_LINE - 1) || frame_start > 0 || start_display != frame_start ||
        to_line_end < 0 || to_line_end > RG__TIA_LINE || last_update < frame_start ||
        stop_display < frame_start || last_update > stop_display || last_update > now) {
        fail(r, "atari2600: Stella 3.9.3 state: %s are inconsistent", "the TIA's frame clocks");
        return;
    }
    if (pf > 0xFFFFFu || suppress0 > 1 || suppress1 > 1) {
        fail(r, "atari2600: Stella 3.9.3 state: %s is out of range", "the playfield or a player suppression");
        return;
    }
    for (int i = 0; i < 5; i++)
        if (pos[i] > 159 || motion[i] > 15) {
            fail(r, "atari2600: Stella 3.9.3 state: %s is out of range", "an object position or motion");
            return;
        }
    t->frame_start = frame_start;
    /* the line being drawn, from the clock drawn up to (the renderer checks its own clocks) */
    int32_t line = (last_update - frame_start) / RG__TIA_LINE;
    if (line > RG__A26_MAX_HEIGHT) {
        fail(r, "atari2600: Stella 3.9.3 state: %s is past the lines a frame keeps", "the last update");
        return;
    }
    t->line = line;
    t->line_clock = frame_start + RG__TIA_LINE * line;
    t->last_update = last_update;
    t->lines_last = lines_last;
    t->vsync_finish = vsync_finish;
    t->hmove_pos = hmove;
    t->prev_hmove_pos = prev_hmove;
    for (int i = 0; i < 5; i++) {
        t->pos[k_pos_obj[i]] = (int16_t)pos[i];
        t->motion[k_pos_obj[i]] = (int8_t)motion[i];
        t->mmr[k_hm_obj[i]] = (uint8_t)mmr[i];
    }
    t->suppress[0] = suppress0;
    t->suppress[1] = suppress1;
    t->colu[0] = color[2] & 0xFEu;
    t->colu[1] = color[3] & 0xFEu;
    t->colu[2] = color[1] & 0xFEu;
    t->colu[3] = color[0] & 0xFEu;
    t->pf[0] = (uint8_t)((pf & 0x0Fu) << 4);
    t->pf[1] = (uint8_t)(pf >> 4);
    t->pf[2] = (uint8_t)(pf >> 12);
    /* the reflection the playfield is drawn with is CTRLPF's from the next line start on (Stella does not save
     * its own copy; the frame is ended here and nothing is drawn before the next line) */
    t->pf_reflect = t->ctrlpf & 1u;
    t->collisions = collisions_from_stella(cx);
    for (int v = 0; v < 2; v++) {
        t->voice[v].audc = snd[v] & 15u;
        t->voice[v].audf = snd[2 + v] & 31u;
        t->voice[v].audv = snd[4 + v] & 15u;
    }
    t->audio_clock = now;
    rg__tia_rederive(t);
}

static void read_cart(reader *r, rg__a26_state *s, rg__a26_cart_type type)
{
    rg__a26_cart *c = &s->cart;
    expect_name(r, k_cart_names[type]);
    switch (type) {
    case RG__A26_CART_F8: case RG__A26_CART_F8SC: case RG__A26_CART_F6: case RG__A26_CART_F6SC:
    case RG__A26_CART_F4: case RG__A26_CART_F4SC: case RG__A26_CART_FA: case RG__A26_CART_UA:
    case RG__A26_CART_3F: {
        uint16_t bank = get16(r, "the cartridge bank");
        if (!r->failed && bank >= c->nbanks)
            fail(r, "atari2600: Stella 3.9.3 state: %s is out of range", "the cartridge bank");
        c->bank = (uint8_t)bank;
        break;
    }
    case RG__A26_CART_FE:
        /* Stella picks the bank from the address of every access; at an instruction boundary that is the pc's */
        (void)get16(r, "the FE last address");
        (void)get16(r, "the FE address before");
        c->bank = (s->cpu.pc & 0x2000u) ? 0 : 1;
        c->fe_armed = 0;
        break;
    case RG__A26_CART_E0:
        /* Stella's E0 load takes the slice numbers but does not map them: the reloaded machine goes on with its
         * power-on slices until the program selects others. So do we (the numbers are only checked). */
        for (int i = 0; i < 4; i++) {
            uint16_t v = get16(r, "an E0 slice");
            if (!r->failed && (v > 7 || (i == 3 && v != 7)))
                fail(r, "atari2600: Stella 3.9.3 state: %s is out of range", "an E0 slice");
        }
        break;
    case RG__A26_CART_E7: {
        uint16_t low = get16(r, "the E7 low slice");
        uint16_t high = get16(r, "the E7 high slice");
        uint16_t ram = get16(r, "the E7 RAM bank");
        if (!r->failed && (low > 7 || high != 7 || ram > 3))
            fail(r, "atari2600: Stella 3.9.3 state: %s are out of range", "the E7 slices");
        c->bank = (uint8_t)low;
        c->ram_bank = (uint8_t)ram;
        break;
    }
    default:
        break;
    }
    size_t ram = type == RG__A26_CART_F8SC || type == RG__A26_CART_F6SC || type == RG__A26_CART_F4SC ? 128
                 : type == RG__A26_CART_FA ? 256 : type == RG__A26_CART_E7 ? 2048 : type == RG__A26_CART_CV ? 1024 : 0;
    if (ram)
        getbytes(r, c->ram, ram, "the cartridge RAM");
    if (!r->failed)
        rg__a26_cart_remap(c);
}

/* Controllers and switches: Stella recomputes them from the input before every frame, so they only need to be
 * well formed. */
static void read_console(reader *r)
{
    for (int p = 0; p < 2; p++) {
        for (int i = 0; i < 5; i++)
            (void)getbool(r, "a controller pin");
        (void)get32(r, "a controller's analog pin");
        (void)get32(r, "a controller's analog pin");
    }
    (void)get8(r, "the console switches");
}

int rg__a26_stella_state_read(const void *src, size_t len, const rg__a26_state *fresh, const uint8_t *rom,
                              size_t rom_size, rg__a26_state *out)
{
    if (!rg__a26_stella_state_sniff(src, len))
        return rg__error(RG_ESTATE, "atari2600: not a Stella 3.9.3 state (no '%s' header)", STELLA_VERSION);
    reader r = {src, len, 4 + sizeof STELLA_VERSION - 1, 0};
    rg__a26_cart_type type = (rg__a26_cart_type)fresh->cart.type;
    rg__a26_state s = *fresh;
    read_cart_name(&r, type);
    expect_name(&r, "System");
    uint32_t cycles = get32(&r, "the system cycle count");
    s.databus = get8(&r, "the data bus");
    if (!r.failed && cycles > RG__A26_FRAME_CYCLES_CUT)
        fail(&r, "atari2600: Stella 3.9.3 state: %s is too large", "the system cycle count");
    s.cycles = cycles;
    read_cpu(&r, &s);
    read_riot(&r, &s, cycles);
    read_tia(&r, &s, (int32_t)(cycles * 3u));
    read_cart(&r, &s, type);
    read_console(&r);
    if (r.failed)
        return RG_ESTATE;
    /* stable-retro pads the state to its buffer size with zeros; anything else after the end is not Stella's */
    for (size_t i = r.off; i < len; i++)
        if (((const uint8_t *)src)[i] != 0)
            return rg__error(RG_ESTATE, "atari2600: Stella 3.9.3 state: %zu bytes after its end are not padding",
                             len - r.off);
    /* between frames: the next run starts a new frame */
    s.partial = 0;
    s.color_loss = 0;
    int rc = rg__a26_state_check(&s, rom, rom_size);
    if (rc != RG_OK)
        return rc;
    *out = s;
    return RG_OK;
}
