/* The two TIA sound channels, sampled twice per line (31.4 kHz NTSC).
 *
 * Each channel divides the sample clock by AUDF+1 (and by 3 more in modes 12-15). On each divided clock the 5-bit
 * polynomial counter steps, and the output stage steps too unless AUDC bit 1 gates it: then it steps only at two
 * fixed points of the 31-step cycle (bit 0 clear, a pure tone of period 31) or when the 5-bit counter's output is
 * 1 (bit 0 set). The output stage is a divide-by-2 (bit 2), the 9-bit (mode 8) or 5-bit counter (bit 3), or the
 * 4-bit counter. Modes 0 and 11 hold the output at 1, so the volume alone is heard. */
#include "cores/atari2600/a26.h"

#include <stdlib.h>
#include <string.h>

#define SAMPLE_CLOCKS (RG__TIA_LINE / 2)

void rg__tia_audio_reset(rg__a26_tia *t)
{
    memset(t->voice, 0, sizeof t->voice);
    for (int i = 0; i < 2; i++) {
        t->voice[i].p4 = 0x0F;
        t->voice[i].p5 = 0x1F;
        t->voice[i].p9 = 0x1FF;
    }
    t->audio_clock = 0;
}

/* Maximal-length shift registers: x^4+x^3+1, x^5+x^3+1, x^9+x^5+1. */
static uint8_t step4(uint8_t p)
{
    return (uint8_t)((p >> 1) | (((p ^ (p >> 1)) & 1u) << 3));
}

static uint8_t step5(uint8_t p)
{
    return (uint8_t)((p >> 1) | (((p ^ (p >> 2)) & 1u) << 4));
}

static uint16_t step9(uint16_t p)
{
    return (uint16_t)((p >> 1) | (((p ^ (p >> 4)) & 1u) << 8));
}

/* One sample clock of a channel; returns its output bit. */
static unsigned clock_voice(rg__tia_voice *v)
{
    unsigned c = v->audc & 15u;
    if (c == 0 || c == 11) {
        v->out = 1;
        return 1;
    }
    if (v->div < v->audf) {
        v->div++;
        return v->out;
    }
    v->div = 0;
    if (c >= 12) { /* the extra divide by 3 */
        if (++v->div3 < 3)
            return v->out;
        v->div3 = 0;
    }
    v->p5 = step5(v->p5);
    int go = 1;
    if (c & 2u)
        go = (c & 1u) ? (v->p5 & 1u) : (v->p5 == 0x1F || v->p5 == 0x0F);
    if (!go)
        return v->out;
    if (c & 4u)
        v->out ^= 1u;
    else if (c == 8) {
        v->p9 = step9(v->p9);
        v->out = v->p9 & 1u;
    } else if (c & 8u)
        v->out = v->p5 & 1u;
    else {
        v->p4 = step4(v->p4);
        v->out = v->p4 & 1u;
    }
    return v->out;
}

static void push(rg__a26_machine *m, int16_t s)
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

void rg__tia_audio_run(rg__a26_machine *m, int32_t clock)
{
    rg__a26_tia *t = &m->st.tia;
    if (!m->audio) { /* nobody listens: only keep the sample clock */
        if (t->audio_clock <= clock)
            t->audio_clock += ((clock - t->audio_clock) / SAMPLE_CLOCKS + 1) * SAMPLE_CLOCKS;
        return;
    }
    while (t->audio_clock <= clock) {
        unsigned a = clock_voice(&t->voice[0]) * (t->voice[0].audv & 15u);
        unsigned b = clock_voice(&t->voice[1]) * (t->voice[1].audv & 15u);
        push(m, (int16_t)((a + b) * 1092u));
        t->audio_clock += SAMPLE_CLOCKS;
    }
}

void rg__tia_audio_write(rg__a26_machine *m, unsigned reg, uint8_t value)
{
    rg__a26_tia *t = &m->st.tia;
    rg__tia_audio_run(m, (int32_t)(m->st.cycles * 3u));
    rg__tia_voice *v = &t->voice[(reg - 0x15u) & 1u];
    switch ((reg - 0x15u) >> 1) {
    case 0: v->audc = value & 15u; break;
    case 1: v->audf = value & 31u; break;
    default: v->audv = value & 15u; break;
    }
}

int rg__tia_audio_check(const rg__a26_tia *t, int32_t now)
{
    /* a run ends with the sample clock just past its last clock (power-on: at it), so the next run has at most
     * the samples of its own clocks to produce */
    if ((int64_t)t->audio_clock < (int64_t)now || (int64_t)t->audio_clock > (int64_t)now + SAMPLE_CLOCKS)
        return rg__error(RG_ESTATE, "atari2600 state: the audio clock %ld is not within a sample of the CPU's %ld",
                         (long)t->audio_clock, (long)now);
    for (int i = 0; i < 2; i++) {
        const rg__tia_voice *v = &t->voice[i];
        if (v->audc > 15 || v->audf > 31 || v->audv > 15 || v->div > 31 || v->div3 > 2 || v->out > 1 ||
            v->p4 > 15 || v->p5 > 31 || v->p9 > 511)
            return rg__error(RG_ESTATE, "atari2600 state: a register or counter of sound channel %d is out of range",
                             i);
    }
    return RG_OK;
}
