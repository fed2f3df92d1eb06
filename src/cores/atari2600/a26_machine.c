/* The Atari 2600 machine: power-on, reset and the frame loop, which runs the CPU loop compiled for the cart's bus kind
 * (a26_bus.h, a26_cpu_<kind>.c). */
#include "cores/atari2600/a26_bus.h"

/* Stella's generator as its libretro build seeds it on every load; a first reset (for the NTSC/PAL detection) draws
 * 128 RAM bytes, the timer, the cartridge RAM and 4 CPU registers. */
#define RNG_SEED 543u
#define RNG_FIRST_RESET 133u

/* The bus kind of a cart: which CPU loop runs it (a26_bus.h). */
static int bus_kind(const rg__a26_cart *c)
{
    switch (c->type) {
    case RG__A26_CART_2K:
    case RG__A26_CART_4K: return BUS_PLAIN;
    case RG__A26_CART_F8: case RG__A26_CART_F8SC: case RG__A26_CART_F6: case RG__A26_CART_F6SC:
    case RG__A26_CART_F4: case RG__A26_CART_F4SC: case RG__A26_CART_FA: return BUS_4K;
    case RG__A26_CART_E0: return BUS_E0;
    case RG__A26_CART_FE: return BUS_FE;
    default: return BUS_ANY;
    }
}

/* Generator draws of Stella's cartridge reset (its extra RAM), counted on a copy. */
static unsigned cart_draws(const rg__a26_machine *m)
{
    rg__a26_cart copy = m->st.cart;
    uint32_t rng = 0;
    return (unsigned)rg__a26_cart_randomize_ram(&copy, &rng);
}

/* The reset of all chips with the generator where it is (Stella's System::reset): RIOT RAM and timer, then the
 * cartridge RAM, then the CPU registers. */
static void reset_chips(rg__a26_machine *m)
{
    rg__a26_state *s = &m->st;
    for (int i = 0; i < 128; i++)
        s->ram[i] = (uint8_t)rg__a26_rand(s);
    rg__a26_riot_reset(&s->riot, (uint8_t)(0xFFu - rg__a26_rand(s) % 0xFEu));
    rg__tia_reset(&s->tia);
    rg__a26_cart_init(&s->cart, (rg__a26_cart_type)s->cart.type, m->rom, m->rom_size);
    rg__a26_cart_randomize_ram(&s->cart, &s->rng);
    rg__m6502_init(&s->cpu);
    s->cpu.a = (uint8_t)rg__a26_rand(s);
    s->cpu.x = (uint8_t)rg__a26_rand(s);
    s->cpu.y = (uint8_t)rg__a26_rand(s);
    s->cpu.p = (uint8_t)((rg__a26_rand(s) | RG_M6502_U) & ~RG_M6502_B);
    s->cpu.s = 0xFF;
    /* the vector is read without bus cycles */
    s->cpu.pc = (uint16_t)(rg__a26_cart_read(&s->cart, m->rom, 0x1FFC, 0) |
                           rg__a26_cart_read(&s->cart, m->rom, 0x1FFD, 0) << 8);
    s->cycles = 0;
    s->databus = 0;
    s->partial = 0;
    s->color_loss = 0;
    m->snoop = (uint8_t)rg__a26_cart_snoops(&s->cart);
    m->rom_mask = m->rom_size >= 4096 ? 0x0FFFu : (unsigned)m->rom_size - 1u;
    if (m->rom_size)
        for (unsigned i = 0; i < sizeof m->rom4k; i++)
            m->rom4k[i] = m->rom[i & m->rom_mask];
    m->bank = NULL; /* 4K-bank carts: rom4k holds no bank now */
}

void rg__a26_power_on(rg__a26_machine *m, int after_detection)
{
    rg__a26_state *s = &m->st;
    rg__a26_paddles_reset(&s->paddles[0]);
    rg__a26_paddles_reset(&s->paddles[1]);
    s->rng = RNG_SEED;
    if (after_detection)
        for (unsigned i = 0, n = RNG_FIRST_RESET + cart_draws(m); i < n; i++)
            rg__a26_rand(s);
    reset_chips(m);
}

void rg__a26_soft_reset(rg__a26_machine *m)
{
    reset_chips(m);
}

void rg__a26_set_timing(rg__a26_machine *m, int hz50, int pal_colours, int32_t ystart, int32_t height)
{
    uint32_t lines = (uint32_t)(ystart + height), least = hz50 ? 312u : 262u;
    m->ystart = ystart;
    m->height = height;
    m->max_lines = hz50 ? 342u : 290u;
    m->fps = hz50 ? (double)49.92f : (double)59.92f; /* Stella's frame rates (floats) */
    m->stop_lines = lines < least ? least : lines > RG__A26_MAX_HEIGHT ? RG__A26_MAX_HEIGHT : lines;
    m->palette = pal_colours ? rg__a26_palette_pal : rg__a26_palette_ntsc;
    /* colour loss only at 50 Hz */
    m->palette_loss = !hz50 ? NULL : pal_colours ? rg__a26_palette_pal_loss : rg__a26_palette_ntsc_loss;
}

static void start_frame(rg__a26_machine *m)
{
    rg__a26_state *s = &m->st;
    rg__a26_tia *t = &s->tia;
    int32_t now = (int32_t)(s->cycles * 3u);
    /* the TIA's counters go on across VSYNC: the new frame starts at the beginning of the current line */
    int32_t into_line = (now - t->frame_start) % RG__TIA_LINE;
    s->riot.timer_set -= s->cycles;
    s->riot.cleared -= s->cycles;
    t->dump_released -= s->cycles;
    t->audio_clock -= now;
    /* a VSYNC still on keeps counting across the new start (Stella rebases this clock too) */
    t->vsync_finish = (int32_t)((int64_t)t->vsync_finish - now < INT32_MIN ? INT32_MIN : t->vsync_finish - now);
    s->cycles = 0;
    t->frame_start = -into_line;
    t->last_update = -into_line;
    t->line = 0;
    t->line_clock = -into_line;
    m->tia_clock = -into_line;
    s->color_loss = m->palette_loss && (t->lines_last & 1u);
    uint32_t *fb = m->fb;
    m->fb = m->fb_prev;
    m->fb_prev = fb;
    uint8_t *fb8 = m->fb8;
    m->fb8 = m->fb8_prev;
    m->fb8_prev = fb8;
}

static void end_frame(rg__a26_machine *m)
{
    rg__a26_state *s = &m->st;
    rg__a26_tia *t = &s->tia;
    int32_t now = (int32_t)(s->cycles * 3u);
    uint32_t lines = (uint32_t)((now - t->frame_start) / RG__TIA_LINE), prev = t->lines_last;
    rg__tia_update(m, m->tia_clock); /* accesses that did not draw (WSYNC, colours unseen...) */
    rg__tia_flush(m);
    t->lines_last = lines;
    if (lines > m->max_lines + 1) { /* VSYNC came late or never: Stella shows a black frame */
        t->lines_last = m->max_lines;
        if (prev < m->max_lines && m->video)
            rg__tia_clear_lines(m, 0, RG__A26_MAX_HEIGHT);
    } else if (lines < prev && lines < RG__A26_MAX_HEIGHT && prev < RG__A26_MAX_HEIGHT && m->video) {
        rg__tia_clear_lines(m, (int32_t)lines, (int32_t)prev); /* lines this frame did not reach */
    }
    t->frames++;
    if (t->lines_last >= 287)
        t->pal_frames++;
    rg__tia_audio_run(m, now);
}

/* A jammed CPU: time runs on to the line where the frame is ended anyway. */
static void jammed(rg__a26_machine *m)
{
    rg__a26_state *s = &m->st;
    int32_t end = s->tia.frame_start + RG__TIA_LINE * (int32_t)(m->max_lines + 1);
    if ((int32_t)(s->cycles * 3u) < end)
        s->cycles = (uint32_t)(end + 2) / 3u;
    rg__tia_update(m, (int32_t)(s->cycles * 3u));
    s->partial = 0;
}

void rg__a26_run_frame(rg__a26_machine *m)
{
    rg__a26_state *s = &m->st;
    if (!s->partial)
        start_frame(m);
    s->partial = 1;
    m->budget = RG__A26_INSN_BUDGET;
    m->write_cycle = UINT32_MAX; /* runs start at an instruction boundary */
    m->alen = 0;
    int kind = bus_kind(&s->cart), jam;
    if (kind == BUS_PLAIN) {
        jam = rg__a26_cpu_run_plain(&s->cpu, m);
    } else if (kind == BUS_4K) {
        refresh_bank(m);
        jam = rg__a26_cpu_run_4k(&s->cpu, m);
    } else if (kind == BUS_E0) {
        refresh_slices(m);
        jam = rg__a26_cpu_run_e0(&s->cpu, m);
    } else if (kind == BUS_FE) {
        refresh_bank(m);
        jam = rg__a26_cpu_run_fe(&s->cpu, m);
    } else {
        jam = rg__a26_cpu_run_any(&s->cpu, m);
    }
    if (jam)
        jammed(m);
    /* a frame that never ends (no VSYNC, no TIA write) is cut before the clocks overflow */
    if (s->partial && s->cycles > RG__A26_FRAME_CYCLES_CUT)
        s->partial = 0;
    end_frame(m);
}
