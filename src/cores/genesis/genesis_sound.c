/* The Genesis' sound side (docs/genesis.md): the Z80 at master / 15 with its bus (8 KiB RAM at $0000-$3FFF, the
 * YM2612 at $4000-$5FFF, the bank register at $6000, the VDP and PSG at $7F00, the 68000's space through the 32 KiB
 * window at $8000), the YM2612's timers A and B with their status flags, its registers, and the PSG's. While audio is
 * observed (m->audio) the YM2612's FM (genesis_fm.c) and the PSG's tones and noise are synthesised up to each
 * register write and the frame's end, mixed and resampled to 44,100 Hz stereo into m->abuf; otherwise nothing runs. */
#include "cores/genesis/genesis.h"

#define YM_SAMPLE_MCLK 1008u /* one YM2612 sample: 144 clocks of the 68000's clock (master / 7) */
#define Z80_MCLK 15u
#define PSG_MCLK 240u      /* one PSG clock: the Z80's clock / 16 */

/* --- audio: the PSG's generators, the mix, the resampling to 44,100 Hz */

/* a PSG channel's level at attenuation 0-15 (2 dB steps, 15 off) */
static const int16_t k_psg_vol[16] = {4096, 3254, 2584, 2053, 1631, 1295, 1029, 817,
                                      649, 516, 410, 325, 258, 205, 163, 0};

void rg__gen_psg_power_on(rg__gen_state *s)
{
    for (unsigned i = 1; i < 8; i += 2)
        s->psg_reg[i] = 15u; /* all four channels off */
    s->fm.psg_lfsr = 0x8000u;
}

static void psg_clock(rg__gen_state *s)
{
    rg__gen_fm *f = &s->fm;
    for (unsigned i = 0; i < 3; i++) {
        uint16_t period = s->psg_reg[2u * i];
        if (f->psg_cnt[i] == 0 || --f->psg_cnt[i] == 0) {
            f->psg_cnt[i] = period ? period : 1u;
            f->psg_out[i] = period > 1u ? (uint8_t)(f->psg_out[i] ^ 1u) : 1u; /* periods 0 and 1: held high */
        }
    }
    if (f->psg_cnt[3] == 0 || --f->psg_cnt[3] == 0) {
        unsigned rate = s->psg_reg[6] & 3u;
        uint16_t t2 = s->psg_reg[4];
        f->psg_cnt[3] = (uint16_t)(rate == 3u ? (t2 ? t2 : 1u) : 0x10u << rate);
        f->psg_out[3] ^= 1u;
        if (f->psg_out[3]) { /* white noise taps bits 0 and 3; periodic noise feeds bit 0 back */
            unsigned fb = (s->psg_reg[6] & 4u) ? ((f->psg_lfsr ^ (f->psg_lfsr >> 3)) & 1u) : (f->psg_lfsr & 1u);
            f->psg_lfsr = (uint16_t)((f->psg_lfsr >> 1) | fb << 15);
        }
    }
}

/* the PSG over one YM sample (1008 master clocks): the mean of its output at each of its clocks */
static int32_t psg_sample(rg__gen_state *s)
{
    rg__gen_fm *f = &s->fm;
    int32_t sum = 0, n = 0;
    unsigned rem = f->psg_rem + YM_SAMPLE_MCLK;
    if ((s->psg_reg[1] & s->psg_reg[3] & s->psg_reg[5] & s->psg_reg[7] & 15u) == 15u) {
        f->psg_rem = (uint16_t)(rem % PSG_MCLK); /* all four off: silence (the generators wait) */
        return 0;
    }
    for (; rem >= PSG_MCLK; rem -= PSG_MCLK, n++) {
        psg_clock(s);
        for (unsigned i = 0; i < 3; i++)
            if (f->psg_out[i])
                sum += k_psg_vol[s->psg_reg[2u * i + 1u] & 15u];
        if (f->psg_lfsr & 1u)
            sum += k_psg_vol[s->psg_reg[7] & 15u];
    }
    f->psg_rem = (uint16_t)rem;
    return n ? sum / n : 0;
}

void rg__gen_audio_run_to(rg__gen_machine *m, uint64_t mclk)
{
    rg__gen_state *s = &m->st;
    rg__gen_fm *f = &s->fm;
    uint64_t target = (mclk + YM_SAMPLE_MCLK - 1u) / YM_SAMPLE_MCLK;
    while (f->t < target) {
        f->t++;
        int32_t l, r;
        rg__gen_fm_sample(f, &l, &r);
        int32_t p = psg_sample(s);
        /* FM: six channels of 14 bits summed (clipped to 16 bits below); the PSG in the middle of both sides */
        f->rs_l += l + p;
        f->rs_r += r + p;
        f->rs_n++;
        f->rs_acc += RG__GEN_AUDIO_RATE * YM_SAMPLE_MCLK;
        if (f->rs_acc >= (uint32_t)RG__GEN_MCLK) {
            f->rs_acc -= (uint32_t)RG__GEN_MCLK;
            if (m->alen < RG__GEN_ABUF_FRAMES) {
                int32_t ol = f->rs_l / (int32_t)f->rs_n, or_ = f->rs_r / (int32_t)f->rs_n;
                m->abuf[2u * m->alen] = (int16_t)(ol > 32767 ? 32767 : ol < -32768 ? -32768 : ol);
                m->abuf[2u * m->alen + 1u] = (int16_t)(or_ > 32767 ? 32767 : or_ < -32768 ? -32768 : or_);
                m->alen++;
            }
            f->rs_l = f->rs_r = 0;
            f->rs_n = 0;
        }
    }
}

void rg__gen_audio_begin(rg__gen_machine *m)
{
    rg__gen_fm *f = &m->st.fm;
    uint64_t start = (rg__gen_frame_base(&m->st) + YM_SAMPLE_MCLK - 1u) / YM_SAMPLE_MCLK;
    m->alen = 0;
    if (f->t < start) { /* audio was not observed since: the time not synthesised is skipped */
        f->t = start;
        f->rs_l = f->rs_r = 0;
        f->rs_n = 0;
    }
}

/* --- YM2612: timers and status */

static void ym_timers_to(rg__gen_state *s, uint64_t mclk)
{
    /* a sample counts from its first master clock on (every sample starting before mclk has run), as Genesis Plus
     * GX runs its YM2612 up to an access */
    uint64_t target = (mclk + YM_SAMPLE_MCLK - 1u) / YM_SAMPLE_MCLK;
    if (target <= s->ym_samples)
        return;
    if (!(s->ym_mode & 3u)) { /* neither timer counts */
        s->ym_samples = target;
        return;
    }
    uint64_t n = target - s->ym_samples;
    s->ym_samples = target;
    if (s->ym_mode & 1u) {
        int32_t period = 1024 - (int32_t)s->ym_ta;
        int64_t left = (int64_t)s->ym_tac - (int64_t)n;
        if (left <= 0) {
            if (s->ym_mode & 4u)
                s->ym_status |= 1u;
            left = period - ((-left) % period);
        }
        s->ym_tac = (int32_t)left;
    }
    if (s->ym_mode & 2u) {
        int32_t period = (256 - (int32_t)s->ym_tb) * 16;
        int64_t left = (int64_t)s->ym_tbc - (int64_t)n;
        if (left <= 0) {
            if (s->ym_mode & 8u)
                s->ym_status |= 2u;
            left = period - ((-left) % period);
        }
        s->ym_tbc = (int32_t)left;
    }
}

uint8_t rg__gen_ym_read(rg__gen_machine *m, uint64_t mclk)
{
    ym_timers_to(&m->st, mclk);
    return m->st.ym_status;
}

static void ym_mode_write(rg__gen_state *s, uint8_t v)
{
    if ((v & 1u) && !(s->ym_mode & 1u)) /* timer A starts: its counter loads */
        s->ym_tac = 1024 - (int32_t)s->ym_ta;
    if ((v & 2u) && !(s->ym_mode & 2u))
        s->ym_tbc = (256 - (int32_t)s->ym_tb) * 16;
    s->ym_status &= (uint8_t)~(v >> 4 & 3u); /* reset A / B */
    s->ym_mode = (uint8_t)(v & 0xCFu);
}

void rg__gen_ym_write(rg__gen_machine *m, uint64_t mclk, unsigned port, uint8_t v)
{
    rg__gen_state *s = &m->st;
    ym_timers_to(s, mclk);
    unsigned part = (port >> 1) & 1u;
    if (!(port & 1u)) {
        s->ym_addr[part] = v;
        return;
    }
    if (m->audio)
        rg__gen_audio_run_to(m, mclk);
    rg__gen_fm_write(&s->fm, part, s->ym_addr[part], v);
    if (part)
        return; /* part II holds channel registers only */
    switch (s->ym_addr[0]) {
    case 0x24:
        s->ym_ta = (uint16_t)((s->ym_ta & 3u) | (unsigned)v << 2);
        break;
    case 0x25:
        s->ym_ta = (uint16_t)((s->ym_ta & 0x3FCu) | (v & 3u));
        break;
    case 0x26:
        s->ym_tb = v;
        break;
    case 0x27:
        ym_mode_write(s, v);
        break;
    default:
        break; /* FM registers: rg__gen_fm_write */
    }
}

/* --- PSG (SN76489): latch/data bytes into its eight registers */

void rg__gen_psg_write(rg__gen_machine *m, uint64_t mclk, uint8_t v)
{
    rg__gen_state *s = &m->st;
    if (m->audio)
        rg__gen_audio_run_to(m, mclk);
    if (v & 0x80u) {
        s->psg_latch = (uint8_t)((v >> 4) & 7u);
        s->psg_reg[s->psg_latch] = (uint16_t)((s->psg_reg[s->psg_latch] & 0x3F0u) | (v & 15u));
    } else if (!(s->psg_latch & 1u) && s->psg_latch != 6) { /* a tone period's high six bits */
        s->psg_reg[s->psg_latch] = (uint16_t)((s->psg_reg[s->psg_latch] & 15u) | (unsigned)(v & 0x3Fu) << 4);
    } else {
        s->psg_reg[s->psg_latch] = (uint16_t)(v & 15u);
    }
    if (s->psg_latch == 6)
        s->fm.psg_lfsr = 0x8000u; /* a noise write restarts the shift register */
}

/* --- the Z80's bus */

static uint8_t z80_read(rg__gen_machine *m, uint16_t a)
{
    rg__gen_state *s = &m->st;
    if (a < 0x4000u)
        return s->zram[a & 0x1FFFu];
    if (a < 0x6000u)
        return rg__gen_ym_read(m, s->z80_cycles * Z80_MCLK);
    if (a < 0x8000u) {
        if (a >= 0x7F00u && a < 0x7F20u) { /* the VDP's ports, as the 68000 reads them */
            uint16_t w = rg__gen_read16(m, 0xC00000u | (a & 0x1Eu));
            return (uint8_t)((a & 1u) ? w : w >> 8);
        }
        return 0xFFu;
    }
    uint32_t addr = (uint32_t)s->z80_bank << 15 | (a & 0x7FFFu);
    uint16_t w = rg__gen_read16(m, addr);
    return (uint8_t)((addr & 1u) ? w : w >> 8);
}

static void z80_write(rg__gen_machine *m, uint16_t a, uint8_t v)
{
    rg__gen_state *s = &m->st;
    if (a < 0x4000u) {
        s->zram[a & 0x1FFFu] = v;
    } else if (a < 0x6000u) {
        rg__gen_ym_write(m, s->z80_cycles * Z80_MCLK, a & 3u, v);
    } else if (a < 0x6100u) { /* bank register: bit 0 shifts in from the top, 9 writes for a whole address */
        s->z80_bank = (uint16_t)((s->z80_bank >> 1) | (unsigned)(v & 1u) << 8);
    } else if (a >= 0x7F00u && a < 0x7F20u) {
        if ((a & 0x1Fu) >= 0x10u && (a & 0x1Fu) < 0x18u) {
            if (a & 1u)
                rg__gen_psg_write(m, s->z80_cycles * Z80_MCLK, v);
        } else {
            rg__gen_write16(m, 0xC00000u | (a & 0x1Eu), (uint16_t)(v << 8 | v), 3);
        }
    } else if (a >= 0x8000u) {
        uint32_t addr = (uint32_t)s->z80_bank << 15 | (a & 0x7FFFu);
        rg__gen_write16(m, addr, (uint16_t)(v << 8 | v), (addr & 1u) ? 1 : 2);
    }
}

#define Z80_FN gen_z80_run
#define Z80_CTX rg__gen_machine
#define Z80_FETCH(ctx, addr, ir) ((ctx)->st.z80_cycles += 4, z80_read((ctx), (addr)))
#define Z80_READ(ctx, addr) ((ctx)->st.z80_cycles += 3, z80_read((ctx), (addr)))
#define Z80_WRITE(ctx, addr, v) ((ctx)->st.z80_cycles += 3, z80_write((ctx), (addr), (v)))
#define Z80_IN(ctx, port) ((ctx)->st.z80_cycles += 4, (void)(port), (uint8_t)0xFFu) /* no I/O ports */
#define Z80_OUT(ctx, port, v) ((ctx)->st.z80_cycles += 4, (void)(port), (void)(v))
#define Z80_INTERNAL(ctx, n) ((ctx)->st.z80_cycles += (unsigned)(n))
#define Z80_STOP(ctx) ((ctx)->st.z80_cycles >= (ctx)->z80_stop_at)
#include "cpu/z80/z80_exec.h"

void rg__gen_z80_run_to(rg__gen_machine *m, uint64_t mclk)
{
    rg__gen_state *s = &m->st;
    uint64_t target = mclk / Z80_MCLK;
    if (s->z80_cycles >= target)
        return;
    if (s->z80_reset || s->z80_busreq) {
        s->z80_cycles = target;
        return;
    }
    m->z80_stop_at = target;
    gen_z80_run(&s->z80, m);
}

void rg__gen_z80_reset(rg__gen_machine *m)
{
    rg__gen_state *s = &m->st;
    uint64_t mclk = s->z80_cycles * Z80_MCLK;
    ym_timers_to(s, mclk);
    rg__z80_init(&s->z80);
    s->z80.int_line = s->z80_int;
    s->ym_mode = 0;
    s->ym_status = 0;
    s->ym_ta = 0;
    s->ym_tb = 0;
    s->ym_tac = s->ym_tbc = 0;
    s->ym_addr[0] = s->ym_addr[1] = 0;
    if (m->audio)
        rg__gen_audio_run_to(m, mclk);
    rg__gen_fm_reset(&s->fm);
}

const char *rg__gen_sound_check(const rg__gen_state *s)
{
    const char *why = rg__z80_check(&s->z80);
    if (why)
        return why;
    if (s->z80_bank > 0x1FFu)
        return "z80_bank above 9 bits";
    if (s->z80_int > 1 || s->z80.int_line != s->z80_int)
        return "z80_int";
    if (s->ym_ta > 0x3FFu || (s->ym_mode & 0x30u) || s->ym_status > 3u)
        return "ym2612 timers";
    if (s->ym_tac < 0 || s->ym_tac > 1024 || s->ym_tbc < 0 || s->ym_tbc > 256 * 16)
        return "ym2612 timer counters";
    if (s->psg_latch > 7)
        return "psg latch";
    for (unsigned i = 0; i < 8; i++)
        if (s->psg_reg[i] > 0x3FFu)
            return "psg registers";
    uint64_t base = rg__gen_frame_base(s);
    /* at a frame's start, or at power-on (frame 0: the Z80's clock starts where the 68000's does, in line 229, PAL
     * 253) */
    uint64_t slack = (s->frame == 0 ? 254u : 2u) * RG__GEN_LINE_MCLK;
    if (s->z80_cycles * Z80_MCLK + 2u * RG__GEN_LINE_MCLK < base || s->z80_cycles * Z80_MCLK > base + slack)
        return "z80 cycles (not at the frame's start)";
    if (s->ym_samples * YM_SAMPLE_MCLK > base + 2u * RG__GEN_LINE_MCLK)
        return "ym2612 samples (past the frame's start)";
    why = rg__gen_fm_check(&s->fm);
    if (why)
        return why;
    if (s->fm.psg_lfsr == 0)
        return "psg noise register";
    if (s->fm.t * YM_SAMPLE_MCLK > base + 2u * RG__GEN_LINE_MCLK)
        return "fm samples (past the frame's start)";
    return NULL;
}
