/* The SN76489 PSG as in the SMS and GG: three square-wave tones, a noise channel with a 16-bit shift register
 * (white noise taps bits 0 and 3), 4-bit attenuation in 2 dB steps. Clocked at the CPU clock / 16; samples at
 * 44100 Hz (mono: the GG's stereo register is kept but not applied). Run only while audio is observed. */
#include "cores/sms/sms.h"

#include <stdlib.h>
#include <string.h>

/* 2 dB per step, a quarter of the range per channel */
static const int16_t k_vol[16] = {8191, 6506, 5168, 4105, 3261, 2590, 2057, 1634,
                                  1298, 1031, 819, 650, 516, 410, 326, 0};

void rg__sms_psg_power_on(rg__sms_psg *p)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < 4; i++)
        p->vol[i] = 0x0F;
    p->lfsr = 0x8000;
    p->stereo = 0xFF;
}

void rg__sms_psg_write(rg__sms_psg *p, uint8_t val)
{
    if (val & 0x80u)
        p->latch = (uint8_t)((val >> 4) & 7u);
    unsigned ch = p->latch >> 1;
    if (p->latch & 1u) {
        p->vol[ch] = (uint8_t)(val & 0x0Fu);
    } else if (ch == 3) {
        p->noise = (uint16_t)(val & 7u);
        p->lfsr = 0x8000;
    } else if (val & 0x80u) {
        p->tone[ch] = (uint16_t)((p->tone[ch] & 0x3F0u) | (val & 0x0Fu));
    } else {
        p->tone[ch] = (uint16_t)((p->tone[ch] & 0x00Fu) | (val & 0x3Fu) << 4);
    }
}

static void tick(rg__sms_psg *p)
{
    for (int i = 0; i < 3; i++) {
        if (p->counter[i] == 0 || --p->counter[i] == 0) {
            p->counter[i] = p->tone[i] ? p->tone[i] : 1u;
            p->out[i] = p->tone[i] > 1u ? (uint8_t)(p->out[i] ^ 1u) : 1u;
        }
    }
    if (p->counter[3] == 0 || --p->counter[3] == 0) {
        unsigned r = p->noise & 3u;
        p->counter[3] = (uint16_t)(r == 3 ? (p->tone[2] ? p->tone[2] : 1u) : 0x10u << r);
        p->out[3] ^= 1u;
        if (p->out[3]) {
            unsigned fb = (p->noise & 4u) ? ((p->lfsr ^ (p->lfsr >> 3)) & 1u) : (p->lfsr & 1u);
            p->lfsr = (uint16_t)((p->lfsr >> 1) | fb << 15);
        }
    }
}

static int16_t sample(const rg__sms_psg *p)
{
    int s = 0;
    for (int i = 0; i < 3; i++)
        s += p->out[i] ? k_vol[p->vol[i]] : 0;
    s += (p->lfsr & 1u) ? k_vol[p->vol[3]] : 0;
    return (int16_t)s;
}

void rg__sms_psg_run(rg__sms_machine *m, uint64_t t)
{
    rg__sms_psg *p = &m->st.psg;
    if (t <= p->t)
        return;
    uint64_t dt = t - p->t;
    p->t = t;
    if (!m->audio)
        return;
    uint64_t total = dt + p->tick_rem;
    uint64_t ticks = total / 16u;
    p->tick_rem = (uint32_t)(total % 16u);
    for (uint64_t k = 0; k < ticks; k++) {
        tick(p);
        p->sample_acc += 16u * RG__SMS_RATE;
        while (p->sample_acc >= 3579545u) {
            p->sample_acc -= 3579545u;
            if (m->alen == m->acap) {
                size_t cap = m->acap ? m->acap * 2 : 1024;
                int16_t *nb = realloc(m->abuf, cap * sizeof *nb);
                if (!nb) {
                    m->aerr = 1;
                    continue;
                }
                m->abuf = nb;
                m->acap = cap;
            }
            m->abuf[m->alen++] = sample(p);
        }
    }
}
