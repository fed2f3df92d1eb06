/* The APU's tone generators and the samples (only while audio is observed).
 *
 * Each CPU cycle the pulse, triangle and noise timers count down (a pulse steps its 8-step duty sequence every
 * 2 * (period + 1) cycles, the triangle its 32-step sequence every period + 1 cycles while both its counters are
 * non-zero, the noise shifts its 15-bit register every table period); the channels' outputs are summed over the
 * cycles of a sample and the means mixed by the NES mixer formulas
 *     pulse = 95.88 / (8128 / (p1 + p2) + 100)
 *     tnd   = 159.79 / (1 / (t / 8227 + n / 12241 + d / 22638) + 100)
 * (0 when their inputs are 0), giving 0 .. ~1.0, scaled to 0 .. 32767.
 *
 * The work goes by spans in which no sounding channel's timer expires and no sample ends; a silent channel's timer
 * is counted down in one go (a silent pulse's duty step follows it; a silent noise channel's shift register holds,
 * its phase being unobservable). */
#include "cores/nes/nes.h"

#include <stdlib.h>

static const uint16_t k_noise_period[16] = {4, 8, 16, 32, 64, 96, 128, 160, 202, 254, 380, 508, 762, 1016, 2034, 4068};

/* Duty sequences as bit masks over the 8 steps (bit i = step i high). */
static const uint8_t k_duty[4] = {0x02, 0x06, 0x1E, 0xF9};

static const uint8_t k_triangle[32] = {15, 14, 13, 12, 11, 10, 9,  8,  7,  6,  5,  4,  3,  2,  1,  0,
                                       0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15};

static void push(rg__nes_machine *m, int16_t s)
{
    if (m->alen == m->acap) {
        size_t cap = m->acap ? m->acap * 2 : 2048;
        int16_t *p = realloc(m->abuf, cap * sizeof *p);
        if (!p) {
            m->aerr = 1;
            return;
        }
        m->abuf = p;
        m->acap = cap;
    }
    m->abuf[m->alen++] = s;
}

/* The mixer on the means of the sample's cycles: with p, t, n, d the sums over N cycles,
 *     pulse = 95.88 p / (8128 N + 100 p)
 *     tnd   = 159.79 X / (N + 100 X),  X = t / 8227 + n / 12241 + d / 22638 */
static void emit(rg__nes_machine *m)
{
    rg__nes_apu *a = &m->st.apu;
    double n = a->sum_n ? (double)a->sum_n : 1.0;
    double p = (double)a->sum_pulse;
    double x = (double)a->sum_tri * (1.0 / 8227.0) + (double)a->sum_noise * (1.0 / 12241.0) +
               (double)a->sum_dmc * (1.0 / 22638.0);
    double out = 95.88 * p / (8128.0 * n + 100.0 * p) + 159.79 * x / (n + 100.0 * x);
    int v = (int)(out * 32767.0 + 0.5);
    push(m, (int16_t)(v > 32767 ? 32767 : v));
    a->sum_n = a->sum_pulse = a->sum_tri = a->sum_noise = a->sum_dmc = 0;
}

static uint16_t noise_step(uint16_t lfsr, unsigned tap)
{
    unsigned fb = (lfsr ^ (lfsr >> tap)) & 1u;
    return (uint16_t)((lfsr >> 1) | (fb << 14));
}

/* Counts a timer down by n cycles (reloading with period); returns how many times it expired. */
static uint64_t advance(uint16_t *timer, unsigned period, uint64_t n)
{
    if (n < *timer) {
        *timer = (uint16_t)(*timer - n);
        return 0;
    }
    uint64_t past = n - *timer;
    *timer = (uint16_t)(period - past % period);
    return 1u + past / period;
}

/* CPU cycles until the sample clock reaches RG__NES_APU_CLOCK_DEN (acc < DEN): 40 or 41 just after a sample. */
static uint64_t cycles_to_sample(uint32_t acc)
{
    uint32_t need = RG__NES_APU_CLOCK_DEN - acc;
    if (acc < RG__NES_APU_CLOCK_NUM)
        return need <= 40u * RG__NES_APU_CLOCK_NUM ? 40u : 41u;
    return (need + RG__NES_APU_CLOCK_NUM - 1u) / RG__NES_APU_CLOCK_NUM;
}

static unsigned env_volume(uint8_t ctrl, const rg__nes_apu_env *e)
{
    return (ctrl & 0x10u) ? (ctrl & 15u) : e->decay;
}

void rg__nes_apu_synth(rg__nes_machine *m, uint64_t n)
{
    rg__nes_apu *a = &m->st.apu;
    rg__nes_apu_pulse *p0 = &a->pulse[0], *p1 = &a->pulse[1];
    rg__nes_apu_triangle *t = &a->tri;
    rg__nes_apu_noise *ns = &a->noise;
    /* what stays the same over the span (the frame counter and the DMC change things only between spans) */
    unsigned v0 = (p0->length && !rg__nes_apu_pulse_muted(p0)) ? env_volume(p0->ctrl, &p0->env) : 0u;
    unsigned v1 = (p1->length && !rg__nes_apu_pulse_muted(p1)) ? env_volume(p1->ctrl, &p1->env) : 0u;
    unsigned d0 = k_duty[p0->ctrl >> 6], d1 = k_duty[p1->ctrl >> 6];
    unsigned per0 = 2u * (p0->period + 1u), per1 = 2u * (p1->period + 1u), pert = t->period + 1u;
    int tri_on = t->length && t->linear;
    unsigned vn = ns->length ? env_volume(ns->ctrl, &ns->env) : 0u;
    unsigned pern = k_noise_period[ns->mode_period & 15u];
    unsigned tap = (ns->mode_period & 0x80u) ? 6u : 1u;
    unsigned dmc = a->dmc.level;
    /* a silent channel's output does not depend on its timer: it is advanced in one go after the spans */
    int act0 = v0 != 0, act1 = v1 != 0, actn = vn != 0;
    uint64_t left = n;
    uint64_t to_sample = cycles_to_sample(a->sample_acc);
    /* spans of cycles in which no sounding channel's timer expires and no sample ends: the outputs stay */
    while (left) {
        uint64_t k = left;
        if (act0 && p0->timer < k)
            k = p0->timer;
        if (act1 && p1->timer < k)
            k = p1->timer;
        if (tri_on && t->timer < k)
            k = t->timer;
        if (actn && ns->timer < k)
            k = ns->timer;
        if (to_sample < k)
            k = to_sample;
        /* cycles 1 .. k-1 of the span keep the outputs; in cycle k the timers at k expire first */
        unsigned out_p = ((d0 >> p0->seq) & 1u) * v0 + ((d1 >> p1->seq) & 1u) * v1;
        unsigned out_n = (ns->lfsr & 1u) ? 0u : vn;
        a->sum_pulse += (uint32_t)((k - 1u) * out_p);
        a->sum_tri += (uint32_t)((k - 1u) * k_triangle[t->seq]);
        a->sum_noise += (uint32_t)((k - 1u) * out_n);
        if (act0 && (p0->timer = (uint16_t)(p0->timer - k)) == 0) {
            p0->timer = (uint16_t)per0;
            p0->seq = (p0->seq + 1u) & 7u;
        }
        if (act1 && (p1->timer = (uint16_t)(p1->timer - k)) == 0) {
            p1->timer = (uint16_t)per1;
            p1->seq = (p1->seq + 1u) & 7u;
        }
        if (tri_on && (t->timer = (uint16_t)(t->timer - k)) == 0) {
            t->timer = (uint16_t)pert;
            t->seq = (t->seq + 1u) & 31u;
        }
        if (actn && (ns->timer = (uint16_t)(ns->timer - k)) == 0) {
            ns->timer = (uint16_t)pern;
            ns->lfsr = noise_step(ns->lfsr, tap);
        }
        a->sum_pulse += ((d0 >> p0->seq) & 1u) * v0 + ((d1 >> p1->seq) & 1u) * v1;
        a->sum_tri += k_triangle[t->seq];
        a->sum_noise += (ns->lfsr & 1u) ? 0u : vn;
        a->sum_dmc += (uint32_t)(k * dmc);
        a->sum_n += (uint32_t)k;
        a->sample_acc += (uint32_t)(k * RG__NES_APU_CLOCK_NUM);
        to_sample -= k;
        if (to_sample == 0) {
            a->sample_acc -= RG__NES_APU_CLOCK_DEN;
            emit(m);
            to_sample = cycles_to_sample(a->sample_acc);
        }
        left -= k;
    }
    if (!act0)
        p0->seq = (uint8_t)((p0->seq + advance(&p0->timer, per0, n)) & 7u);
    if (!act1)
        p1->seq = (uint8_t)((p1->seq + advance(&p1->timer, per1, n)) & 7u);
    if (!tri_on)
        (void)advance(&t->timer, pert, n); /* the sequencer only steps while both counters run */
    if (!actn) /* its timer runs on; the shift register holds while nobody hears it (its phase is not observable) */
        (void)advance(&ns->timer, pern, n);
}
