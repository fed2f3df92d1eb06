/* The Genesis core's audio (docs/genesis.md, "Audio"): YM2612 registers written straight into the machine (a 68000
 * idling in `bra.s *` runs the frames) and the samples it gives at 44,100 Hz: a keyed-on sine at its F-number's
 * frequency (multiple, detune, panning), silence after key off and release, operator 1's feedback adding harmonics,
 * every algorithm sounding, the DAC following the bytes written, a PSG tone at its period's frequency and its noise;
 * nothing synthesised while audio is not observed; a snapshot replays the same samples. Then Airstriker-Genesis
 * (stable-retro's wheel; skipped without it) through the emulator API against genesis_plus_gx's audio over the same
 * frames and input: per-frame loudness correlated, and the core's RAM the same with audio on and off; then from the
 * integration's Level1.state (converted into ours) as loud as GPGX. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include "cores/genesis/genesis.h"

#include <glob.h>
#include <math.h>
#include <zlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE 44100.0
#define PI 3.14159265358979323846
#define YM_HZ (RG__GEN_MCLK / 1008.0)

static uint8_t g_rom[512 * 1024];
static uint32_t g_fb[RG__GEN_WIDTH * RG__GEN_MAX_HEIGHT];

static rg__gen_machine *machine(void)
{
    rg__gen_machine *m = calloc(1, sizeof *m);
    assert_non_null(m);
    memset(g_rom, 0, sizeof g_rom);
    g_rom[0] = 0x00, g_rom[1] = 0xFF, g_rom[2] = 0xFF, g_rom[3] = 0xFE; /* SSP $FFFFFE */
    g_rom[6] = 0x02;                                                    /* PC $200 */
    g_rom[0x200] = 0x60, g_rom[0x201] = 0xFE;                           /* bra.s * */
    m->rom = g_rom;
    m->rom_mask = sizeof g_rom - 1u;
    m->fb = g_fb;
    rg__gen_power_on(m);
    return m;
}

static uint64_t now(const rg__gen_machine *m)
{
    return (uint64_t)m->st.frame * RG__GEN_FRAME_MCLK;
}

/* a YM2612 register write at the frame's start, as the 68000 would make it */
static void ym(rg__gen_machine *m, unsigned part, unsigned r, unsigned v)
{
    rg__gen_ym_write(m, now(m), part * 2u, (uint8_t)r);
    rg__gen_ym_write(m, now(m), part * 2u + 1u, (uint8_t)v);
}

/* runs frames with audio observed, appending the stereo samples to buf (cap frames); returns the frames of audio */
static size_t run(rg__gen_machine *m, unsigned frames, int16_t *buf, size_t cap)
{
    size_t n = 0;
    for (unsigned f = 0; f < frames; f++) {
        m->audio = 1;
        m->video = 0;
        rg__gen_audio_begin(m);
        rg__gen_run_frame(m);
        rg__gen_audio_run_to(m, now(m));
        assert_true(m->alen >= 734u && m->alen <= 737u);
        for (unsigned i = 0; i < m->alen && n < cap; i++, n++) {
            buf[2 * n] = m->abuf[2 * i];
            buf[2 * n + 1] = m->abuf[2 * i + 1];
        }
    }
    return n;
}

/* |DFT| of channel ch (0 left, 1 right, 2 their mean) at frequency hz over n frames (Goertzel) */
static double mag(const int16_t *buf, size_t n, int ch, double hz)
{
    double w = 2.0 * PI * hz / RATE, c = 2.0 * cos(w), s1 = 0, s2 = 0;
    for (size_t i = 0; i < n; i++) {
        double x = ch == 2 ? (buf[2 * i] + buf[2 * i + 1]) / 2.0 : buf[2 * i + (size_t)ch];
        double s0 = x + c * s1 - s2;
        s2 = s1;
        s1 = s0;
    }
    return sqrt(s1 * s1 + s2 * s2 - c * s1 * s2) / (double)n;
}

/* the strongest frequency from lo to hi Hz (1 Hz steps, then 0.05 Hz around it) */
static double dominant(const int16_t *buf, size_t n, int ch, double lo, double hi)
{
    double best = lo, bm = -1;
    for (double f = lo; f <= hi; f += 1.0) {
        double v = mag(buf, n, ch, f);
        if (v > bm)
            bm = v, best = f;
    }
    double c = best;
    for (double f = c - 1.0; f <= c + 1.0; f += 0.05) {
        double v = mag(buf, n, ch, f);
        if (v > bm)
            bm = v, best = f;
    }
    return best;
}

/* the frequency from the rising crossings of the channel's mean over n frames */
static double crossings(const int16_t *buf, size_t n, int ch)
{
    double mean = 0;
    for (size_t i = 0; i < n; i++)
        mean += buf[2 * i + (size_t)ch];
    mean /= (double)n;
    long first = -1, last = -1, count = 0;
    for (size_t i = 1; i < n; i++)
        if (buf[2 * (i - 1) + (size_t)ch] < mean && buf[2 * i + (size_t)ch] >= mean) {
            if (first < 0)
                first = (long)i;
            last = (long)i;
            count++;
        }
    return count > 1 ? (double)(count - 1) * RATE / (double)(last - first) : 0;
}

static int peak(const int16_t *buf, size_t n, int ch)
{
    int p = 0;
    for (size_t i = 0; i < n; i++) {
        int v = abs(buf[2 * i + (size_t)ch]);
        if (v > p)
            p = v;
    }
    return p;
}

/* channel c (0-5) as one voice: algorithm alg, feedback fb, operator o's multiple mul[o] and total level tl[o];
 * attack at once, no decay, release rate 15 */
static void voice(rg__gen_machine *m, unsigned c, unsigned alg, unsigned fb, const unsigned mul[4],
                  const unsigned tl[4])
{
    unsigned part = c / 3u, ch = c % 3u;
    static const unsigned slot[4] = {0, 8, 4, 12};
    for (unsigned o = 0; o < 4; o++) {
        unsigned a = slot[o] + ch;
        ym(m, part, 0x30 + a, mul[o] & 15u); /* DT 0 */
        ym(m, part, 0x40 + a, tl[o]);
        ym(m, part, 0x50 + a, 31);           /* KS 0, AR 31 */
        ym(m, part, 0x60 + a, 0);            /* D1R 0 */
        ym(m, part, 0x70 + a, 0);            /* D2R 0 */
        ym(m, part, 0x80 + a, 0x0F);         /* SL 0, RR 15 */
        ym(m, part, 0x90 + a, 0);
    }
    ym(m, part, 0xB0 + ch, fb << 3 | alg);
}

static void freq(rg__gen_machine *m, unsigned c, unsigned fnum, unsigned block)
{
    ym(m, c / 3u, 0xA4 + c % 3u, block << 3 | fnum >> 8);
    ym(m, c / 3u, 0xA0 + c % 3u, fnum & 0xFFu);
}

static void key(rg__gen_machine *m, unsigned c, unsigned ops)
{
    ym(m, 0, 0x28, ops << 4 | (c >= 3u ? 4u + c - 3u : c));
}

static double fm_hz(unsigned fnum, unsigned block)
{
    return fnum * (double)(1u << block) / 2.0 * YM_HZ / 1048576.0;
}

#define BUF_FRAMES (736u * 120u)
static int16_t g_buf[2 * BUF_FRAMES];

static void test_fm_sine(void **s)
{
    (void)s;
    rg__gen_machine *m = machine();
    static const unsigned mul1[4] = {1, 1, 1, 1}, only4[4] = {127, 127, 127, 0};
    voice(m, 1, 7, 0, mul1, only4); /* channel 2: operator 4 alone */
    freq(m, 1, 1083, 4);
    key(m, 1, 0xF);
    size_t n = run(m, 60, g_buf, BUF_FRAMES);
    double want = fm_hz(1083, 4), got = dominant(g_buf, n, 0, 100, 2000), cross = crossings(g_buf, n, 0);
    print_message("FM sine: %.2f Hz wanted, %.2f (DFT) %.2f (crossings), peak %d\n", want, got, cross,
                  peak(g_buf, n, 0));
    assert_true(fabs(got - want) < want * 0.01);
    assert_true(fabs(cross - want) < want * 0.01);
    assert_true(peak(g_buf, n, 0) > 8000); /* operator 4 at full level: 8,168 */
    assert_int_equal(peak(g_buf, n, 0), peak(g_buf, n, 1));

    /* multiple 2: the octave; panned left only, the right side is silent */
    static const unsigned mul2[4] = {1, 1, 1, 2};
    voice(m, 1, 7, 0, mul2, only4);
    ym(m, 0, 0xB5, 0x80);
    n = run(m, 30, g_buf, BUF_FRAMES);
    got = dominant(g_buf, n, 0, 100, 2000);
    print_message("FM multiple 2: %.2f Hz wanted, %.2f\n", 2 * want, got);
    assert_true(fabs(got - 2 * want) < want * 0.02);
    assert_int_equal(peak(g_buf, n, 1), 0);
    assert_true(peak(g_buf, n, 0) > 3000);

    /* detune: DT 3 raises the frequency, DT 7 lowers it, by Yamaha's table (key code 18: 9 steps of 2^-20 of the YM
     * sample rate on an increment of 8,664) */
    ym(m, 0, 0xB5, 0xC0);
    ym(m, 0, 0x30 + 12 + 1, 0x30 | 1);
    n = run(m, 60, g_buf, BUF_FRAMES);
    double up = crossings(g_buf + 2 * 736 * 2, n - 736 * 2, 0);
    ym(m, 0, 0x30 + 12 + 1, 0x70 | 1);
    n = run(m, 60, g_buf, BUF_FRAMES);
    double down = crossings(g_buf + 2 * 736 * 2, n - 736 * 2, 0);
    print_message("FM detune: +%.3f Hz, %.3f Hz (table: +-%.3f)\n", up - want, down - want, 9 * YM_HZ / 1048576.0);
    assert_true(fabs((up - want) - 9 * YM_HZ / 1048576.0) < 0.1);
    assert_true(fabs((want - down) - 9 * YM_HZ / 1048576.0) < 0.1);

    /* key off: release rate 15 silences it within a few frames */
    key(m, 1, 0);
    run(m, 6, g_buf, BUF_FRAMES);
    n = run(m, 10, g_buf, BUF_FRAMES);
    print_message("FM after key off: peak %d\n", peak(g_buf, n, 0));
    assert_int_equal(peak(g_buf, n, 0), 0);
    assert_int_equal(peak(g_buf, n, 1), 0);
    free(m);
}

/* operator 1 alone: a sine without feedback; with feedback 7 its harmonics grow */
static void test_fm_feedback_and_algorithms(void **s)
{
    (void)s;
    rg__gen_machine *m = machine();
    static const unsigned mul1[4] = {1, 1, 1, 1}, only1[4] = {0, 127, 127, 127};
    double f0 = fm_hz(1083, 4), ratio[2];
    for (unsigned fb = 0; fb < 2; fb++) {
        voice(m, 4, 7, fb ? 7 : 0, mul1, only1);
        freq(m, 4, 1083, 4);
        key(m, 4, 0xF);
        size_t n = run(m, 20, g_buf, BUF_FRAMES);
        ratio[fb] = (mag(g_buf, n, 2, 2 * f0) + mag(g_buf, n, 2, 3 * f0)) / mag(g_buf, n, 2, f0);
        key(m, 4, 0);
        run(m, 10, g_buf, BUF_FRAMES);
    }
    print_message("FM feedback: harmonics 2+3 / fundamental %.4f without, %.4f with feedback 7\n", ratio[0], ratio[1]);
    assert_true(ratio[0] < 0.01);
    assert_true(ratio[1] > 0.2);

    /* every algorithm sounds with all four operators up, and each gives its own wave */
    static const unsigned tl[4] = {20, 20, 20, 0};
    static const unsigned mul[4] = {1, 2, 3, 1};
    double energy[8];
    for (unsigned alg = 0; alg < 8; alg++) {
        voice(m, 0, alg, 3, mul, tl);
        freq(m, 0, 1083, 4);
        key(m, 0, 0xF);
        size_t n = run(m, 6, g_buf, BUF_FRAMES);
        energy[alg] = mag(g_buf, n, 0, f0) + mag(g_buf, n, 0, 2 * f0) + mag(g_buf, n, 0, 3 * f0);
        assert_true(peak(g_buf, n, 0) > 1000);
        for (unsigned b = 0; b < alg; b++)
            assert_true(fabs(energy[alg] - energy[b]) > 1.0);
        key(m, 0, 0);
        run(m, 10, g_buf, BUF_FRAMES);
    }
    /* channel 3's special mode: operator 4 keeps the channel's frequency, the others take $A8-$AA's */
    static const unsigned only4[4] = {127, 127, 127, 0}, only2[4] = {127, 0, 127, 127};
    voice(m, 2, 7, 0, mul1, only2);
    freq(m, 2, 1083, 4);
    ym(m, 0, 0xAE, 4 << 3 | (1500 >> 8)); /* operator 2: $AA / $AE */
    ym(m, 0, 0xAA, 1500 & 0xFF);
    ym(m, 0, 0x27, 0x40);
    key(m, 2, 0xF);
    size_t n = run(m, 30, g_buf, BUF_FRAMES);
    double sp = dominant(g_buf, n, 0, 100, 2000);
    voice(m, 2, 7, 0, mul1, only4);
    n = run(m, 30, g_buf, BUF_FRAMES);
    double s4 = dominant(g_buf, n, 0, 100, 2000);
    print_message("FM channel 3 special: operator 2 %.2f Hz (wanted %.2f), operator 4 %.2f (wanted %.2f)\n", sp,
                  fm_hz(1500, 4), s4, f0);
    assert_true(fabs(sp - fm_hz(1500, 4)) < f0 * 0.01);
    assert_true(fabs(s4 - f0) < f0 * 0.01);
    free(m);
}

static void test_dac(void **s)
{
    (void)s;
    rg__gen_machine *m = machine();
    ym(m, 0, 0x2B, 0x80);
    static const uint8_t bytes[4] = {0xC0, 0x40, 0x80, 0xFF};
    for (unsigned i = 0; i < 4; i++) {
        ym(m, 0, 0x2A, bytes[i]);
        size_t n = run(m, 1, g_buf, BUF_FRAMES);
        int want = ((int)bytes[i] - 128) * 64; /* 14 bits */
        for (size_t k = 2; k < n; k++) {
            assert_int_equal(g_buf[2 * k], want);
            assert_int_equal(g_buf[2 * k + 1], want);
        }
    }
    /* panned right only: the left side is silent */
    ym(m, 1, 0xB6, 0x40);
    ym(m, 0, 0x2A, 0xC0);
    size_t n = run(m, 1, g_buf, BUF_FRAMES);
    assert_int_equal(g_buf[2 * (n - 1)], 0);
    assert_int_equal(g_buf[2 * (n - 1) + 1], 0x40 * 64);
    /* DAC off: channel 6 is FM again (silent, not keyed on) */
    ym(m, 0, 0x2B, 0x00);
    n = run(m, 1, g_buf, BUF_FRAMES);
    assert_int_equal(peak(g_buf, n, 1), 0);
    free(m);
}

static void psg(rg__gen_machine *m, uint8_t v)
{
    rg__gen_psg_write(m, now(m), v);
}

static void test_psg(void **s)
{
    (void)s;
    rg__gen_machine *m = machine();
    size_t n = run(m, 5, g_buf, BUF_FRAMES);
    assert_int_equal(peak(g_buf, n, 0), 0); /* power-on: all channels off */
    /* tone 1: period 254, 3579545 / (32 x 254) = 440.4 Hz, attenuation 0 */
    psg(m, 0x80 | (254 & 15));
    psg(m, 254 >> 4);
    psg(m, 0x90);
    n = run(m, 60, g_buf, BUF_FRAMES);
    double want = 3579545.0 / (32.0 * 254.0), got = dominant(g_buf, n, 0, 100, 2000), cr = crossings(g_buf, n, 1);
    print_message("PSG tone: %.2f Hz wanted, %.2f (DFT) %.2f (crossings), peak %d\n", want, got, cr,
                  peak(g_buf, n, 0));
    assert_true(fabs(got - want) < want * 0.01);
    assert_true(fabs(cr - want) < want * 0.01);
    assert_true(peak(g_buf, n, 0) >= 4000 && peak(g_buf, n, 0) <= 4096);
    /* attenuation 15: off again; the noise channel sounds */
    psg(m, 0x9F);
    n = run(m, 2, g_buf, BUF_FRAMES);
    assert_int_equal(peak(g_buf, n - 10, 0) <= 4096, 1);
    n = run(m, 2, g_buf, BUF_FRAMES);
    assert_int_equal(peak(g_buf, n, 0), 0);
    psg(m, 0xE4); /* white noise, the fastest rate */
    psg(m, 0xF0);
    n = run(m, 10, g_buf, BUF_FRAMES);
    size_t ones = 0;
    for (size_t i = 0; i < n; i++)
        ones += g_buf[2 * i] > 2048;
    print_message("PSG noise: %zu of %zu samples high\n", ones, n);
    assert_true(ones > n / 4 && ones < 3 * n / 4);
    free(m);
}

/* no audio observed: nothing is synthesised (the operators keep their power-on phase), and the registers are kept */
static void test_audio_off(void **s)
{
    (void)s;
    rg__gen_machine *m = machine();
    static const unsigned mul1[4] = {1, 1, 1, 1}, only4[4] = {127, 127, 127, 0};
    voice(m, 0, 7, 0, mul1, only4);
    freq(m, 0, 1083, 4);
    key(m, 0, 0xF);
    for (unsigned f = 0; f < 10; f++) {
        m->audio = 0;
        rg__gen_run_frame(m);
        assert_int_equal(m->alen, 0);
    }
    assert_int_equal(m->st.fm.op[0][3].phase, 0);
    assert_int_equal(m->st.fm.t, 0);
    assert_int_equal(m->st.fm.fnum[0], 1083);
    size_t n = run(m, 10, g_buf, BUF_FRAMES); /* observed from now on: the note sounds */
    assert_true(peak(g_buf, n, 0) > 3000);
    free(m);
}

/* a snapshot (a copy of the state) replays the same samples */
static void test_snapshot_replays_audio(void **s)
{
    (void)s;
    rg__gen_machine *m = machine();
    static const unsigned mul[4] = {2, 1, 3, 1}, tl[4] = {30, 25, 30, 0};
    voice(m, 3, 4, 5, mul, tl);
    ym(m, 0, 0x22, 0x08 | 6);  /* LFO on */
    ym(m, 1, 0xB4, 0xC0 | 0x30 | 7);
    freq(m, 3, 700, 5);
    key(m, 3, 0xF);
    psg(m, 0x80 | 5);
    psg(m, 0x10);
    psg(m, 0x94);
    run(m, 5, g_buf, BUF_FRAMES);
    rg__gen_state *snap = malloc(sizeof *snap);
    assert_non_null(snap);
    *snap = m->st;
    assert_int_equal(rg__gen_state_check(snap), RG_OK);
    size_t n = run(m, 20, g_buf, BUF_FRAMES);
    int16_t *again = malloc(sizeof g_buf);
    assert_non_null(again);
    m->st = *snap;
    size_t n2 = run(m, 20, again, BUF_FRAMES);
    assert_int_equal(n, n2);
    assert_memory_equal(g_buf, again, n * 4);
    assert_true(peak(g_buf, n, 0) > 1000);
    /* hostile FM state is refused naming it */
    snap->fm.op[2][1].att = 0x400;
    assert_int_equal(rg__gen_state_check(snap), RG_ESTATE);
    assert_non_null(strstr(rg_error_last(), "fm operator"));
    snap->fm.op[2][1].att = 0;
    snap->fm.psg_lfsr = 0;
    assert_int_equal(rg__gen_state_check(snap), RG_ESTATE);
    assert_non_null(strstr(rg_error_last(), "psg noise"));
    snap->fm.psg_lfsr = 1;
    snap->fm.rs_l = 0x7FFFFFFF; /* a sum that would overflow */
    assert_int_equal(rg__gen_state_check(snap), RG_ESTATE);
    assert_non_null(strstr(rg_error_last(), "audio resampler"));
    free(again);
    free(snap);
    free(m);
}

/* --- Airstriker-Genesis against Genesis Plus GX */

#define AIR_FRAMES 1500u

/* START pressed for 8 frames in every 40 from frame 300 (title, menus, the game), a few directions and fire */
static uint16_t pad(unsigned f)
{
    uint16_t b = 0;
    if (f >= 300u && f % 40u < 8u)
        b |= 1u << 3;
    if (f >= 800u)
        b |= (uint16_t)(((f / 30u) & 1u) ? 1u << 6 : 1u << 7) | ((f / 7u) & 1u);
    return b;
}

/* the mono mix of all frames, kept for the spectrum */
#define MONO_CAP (740u * AIR_FRAMES)
typedef struct mono {
    float *x;
    size_t n;
} mono;

/* per-frame RMS of the mono mix of one frame's audio (appended to keep) */
static double frame_rms(rg_emu *e, size_t *frames, mono *keep)
{
    const int16_t *a;
    size_t n;
    assert_int_equal(rg_emu_audio(e, &a, &n), RG_OK);
    *frames = n;
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        double x = (a[2 * i] + a[2 * i + 1]) / 2.0;
        sum += x * x;
        if (keep->n < MONO_CAP)
            keep->x[keep->n++] = (float)x;
    }
    return n ? sqrt(sum / (double)n) : 0;
}

/* the spectrum in BANDS bands of half an octave from 62.5 Hz: mean power (dB) of 4 probes per band over blocks of
 * 2048 samples */
#define BANDS 16
static void spectrum(const mono *m, double out[BANDS])
{
    for (unsigned b = 0; b < BANDS; b++) {
        double pw = 0;
        size_t blocks = 0;
        for (unsigned k = 0; k < 4; k++) {
            double hz = 62.5 * pow(2.0, (b + k / 4.0) / 2.0), w = 2.0 * PI * hz / RATE, c = 2.0 * cos(w);
            for (size_t at = 0; at + 2048 <= m->n; at += 2048, blocks++) {
                double s1 = 0, s2 = 0;
                for (size_t i = 0; i < 2048; i++) {
                    double s0 = m->x[at + i] + c * s1 - s2;
                    s2 = s1;
                    s1 = s0;
                }
                pw += (s1 * s1 + s2 * s2 - c * s1 * s2) / (2048.0 * 2048.0);
            }
        }
        out[b] = 10.0 * log10(pw / (double)(blocks ? blocks : 1) + 1e-9);
    }
}

static double correlation(const double *a, const double *b, size_t n)
{
    double ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;
    for (size_t i = 0; i < n; i++)
        ma += a[i], mb += b[i];
    ma /= (double)n, mb /= (double)n;
    for (size_t i = 0; i < n; i++) {
        sab += (a[i] - ma) * (b[i] - mb);
        saa += (a[i] - ma) * (a[i] - ma);
        sbb += (b[i] - mb) * (b[i] - mb);
    }
    return saa > 0 && sbb > 0 ? sab / sqrt(saa * sbb) : 0;
}

static void test_airstriker_vs_gpgx(void **s)
{
    (void)s;
#if defined(__SANITIZE_ADDRESS__)
    print_message("skipped: the foreign core is not run under ASan\n");
    skip();
#endif
    char rom[2200];
    int found = test_wheel_data("Airstriker-Genesis*/rom.md", rom, sizeof rom);
    test_use_wheel_cores();
    if (!found || !test_have_wheel_core("genesis_plus_gx")) {
        print_message("skipped: no Airstriker-Genesis or genesis_plus_gx in .venv's stable-retro\n");
        skip();
    }
    rg_emu *gx = test_open_in(rom, "genesis_plus_gx", "Genesis", 1), *us = test_open_in(rom, "genesis", "Genesis", 1),
           *quiet = test_open_in(rom, "genesis", "Genesis", 0);
    double *rg = calloc(AIR_FRAMES, sizeof *rg), *ro = calloc(AIR_FRAMES, sizeof *ro);
    assert_non_null(rg);
    assert_non_null(ro);
    static uint8_t ra[0x10000], rb[0x10000];
    size_t total_g = 0, total_o = 0, loud = 0;
    mono mg = {malloc(MONO_CAP * sizeof(float)), 0}, mo = {malloc(MONO_CAP * sizeof(float)), 0};
    assert_non_null(mg.x);
    assert_non_null(mo.x);
    double sum_g = 0, sum_o = 0;
    for (unsigned f = 0; f < AIR_FRAMES; f++) {
        rg_emu *all[3] = {gx, us, quiet};
        for (unsigned k = 0; k < 3; k++) {
            assert_int_equal(rg_emu_set_buttons(all[k], 0, pad(f)), RG_OK);
            assert_int_equal(rg_emu_run(all[k]), RG_OK);
        }
        size_t ng, no;
        rg[f] = frame_rms(gx, &ng, &mg);
        ro[f] = frame_rms(us, &no, &mo);
        total_g += ng, total_o += no;
        sum_g += rg[f] * rg[f], sum_o += ro[f] * ro[f];
        loud += ro[f] > 100.0;
        /* audio changes nothing the game or the player sees: RAM with and without it is the same */
        assert_int_equal(rg_emu_mem_read(us, 0xFF0000, ra, sizeof ra), RG_OK);
        assert_int_equal(rg_emu_mem_read(quiet, 0xFF0000, rb, sizeof rb), RG_OK);
        if (memcmp(ra, rb, sizeof ra) != 0)
            fail_msg("frame %u: RAM differs with audio on and off", f);
        const int16_t *a;
        size_t n;
        assert_int_equal(rg_emu_audio(quiet, &a, &n), RG_OK);
        assert_int_equal(n, 0);
    }
    double corr = correlation(rg, ro, AIR_FRAMES);
    /* the same, smoothed over 10 frames (the envelope of the music rather than each note's phase) */
    double sg[AIR_FRAMES / 10], so_[AIR_FRAMES / 10];
    for (unsigned i = 0; i < AIR_FRAMES / 10; i++) {
        sg[i] = so_[i] = 0;
        for (unsigned k = 0; k < 10; k++)
            sg[i] += rg[10 * i + k], so_[i] += ro[10 * i + k];
    }
    double corr10 = correlation(sg, so_, AIR_FRAMES / 10);
    print_message("Airstriker audio, %u frames: GPGX %zu sample frames, RMS %.0f; ours %zu, RMS %.0f (ratio %.2f); "
                  "per-frame RMS correlation %.3f, over 10 frames %.3f; %zu frames of ours above RMS 100\n",
                  AIR_FRAMES, total_g, sqrt(sum_g / AIR_FRAMES), total_o, sqrt(sum_o / AIR_FRAMES),
                  sqrt(sum_o / sum_g), corr, corr10, loud);
    double bg[BANDS], bo[BANDS];
    spectrum(&mg, bg);
    spectrum(&mo, bo);
    char line[BANDS * 16] = "", *p = line;
    double worst = 0;
    for (unsigned b = 0; b < BANDS; b++) {
        p += snprintf(p, sizeof line - (size_t)(p - line), " %.0f/%.0f", bg[b], bo[b]);
        if (bg[b] > 40.0 && fabs(bg[b] - bo[b]) > worst) /* bands GPGX has something in */
            worst = fabs(bg[b] - bo[b]);
    }
    double scorr = correlation(bg, bo, BANDS);
    print_message("Airstriker spectrum, dB per half octave from 62.5 Hz, GPGX/ours:%s; correlation %.3f, largest "
                  "difference %.1f dB\n", line, scorr, worst);
    assert_true(scorr > 0.95); /* measured 0.997 (2026-11-27) */
    assert_true(loud > AIR_FRAMES / 2);
    assert_true(total_o > 735u * AIR_FRAMES - AIR_FRAMES && total_o < 737u * AIR_FRAMES);
    assert_true(corr > 0.9); /* measured 0.998 */
    assert_true(sqrt(sum_o / sum_g) > 0.8 && sqrt(sum_o / sum_g) < 1.25); /* measured 1.03 */
    free(mg.x);
    free(mo.x);

    /* from the integration's start state (Level1.state, saved by GPGX; converted into ours without its YM2612
     * voices): the game's driver sets its instruments again, and ours sounds as loud as GPGX from the first second */
    char level1[2200];
    found = test_wheel_data("Airstriker-Genesis*/Level1.state", level1, sizeof level1);
    gzFile z = found ? gzopen(level1, "rb") : NULL;
    if (z) {
        size_t cap = 2u << 20;
        uint8_t *st = malloc(cap);
        assert_non_null(st);
        int n = gzread(z, st, (unsigned)cap);
        gzclose(z);
        assert_true(n > 0);
        assert_int_equal(rg_emu_state_load(gx, st, (size_t)n), RG_OK);
        assert_int_equal(rg_emu_state_load(us, st, (size_t)n), RG_OK);
        free(st);
        double eg = 0, eo = 0;
        size_t ng, no;
        mono none = {NULL, MONO_CAP};
        for (unsigned f = 0; f < 600u; f++) {
            assert_int_equal(rg_emu_set_buttons(gx, 0, pad(f + 800u)), RG_OK);
            assert_int_equal(rg_emu_set_buttons(us, 0, pad(f + 800u)), RG_OK);
            assert_int_equal(rg_emu_run(gx), RG_OK);
            assert_int_equal(rg_emu_run(us), RG_OK);
            rg[f] = frame_rms(gx, &ng, &none);
            ro[f] = frame_rms(us, &no, &none);
            eg += rg[f] * rg[f], eo += ro[f] * ro[f];
        }
        double lc = correlation(rg, ro, 600u);
        print_message("Airstriker from Level1.state, 600 frames: RMS GPGX %.0f, ours %.0f (ratio %.2f), per-frame RMS "
                      "correlation %.3f\n", sqrt(eg / 600.0), sqrt(eo / 600.0), sqrt(eo / eg), lc);
        assert_true(sqrt(eo / eg) > 0.8 && sqrt(eo / eg) < 1.25); /* measured 1.04 */
        assert_true(lc > 0.7);                                   /* measured 0.879 */
    }
    free(rg);
    free(ro);
    rg_emu_free(gx);
    rg_emu_free(us);
    rg_emu_free(quiet);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fm_sine),
        cmocka_unit_test(test_fm_feedback_and_algorithms),
        cmocka_unit_test(test_dac),
        cmocka_unit_test(test_psg),
        cmocka_unit_test(test_audio_off),
        cmocka_unit_test(test_snapshot_replays_audio),
        cmocka_unit_test(test_airstriker_vs_gpgx),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
