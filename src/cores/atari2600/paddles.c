/* Paddle controllers from digital input (see paddles.h). */
#include "cores/atari2600/paddles.h"

#include "base/base.h"

#define TRIGMAX 4096
#define CHARGE_MAX 3856 /* the knob stops here (as measured against Stella) */
#define SENSITIVITY 5                    /* frames of slow movement */
#define DISTANCE (20 + (SENSITIVITY << 3)) /* then this much a frame */
#define RES_SCALE 1400000.0f

void rg__a26_paddles_reset(rg__a26_paddles *p)
{
    for (int i = 0; i < 2; i++) {
        p->charge[i] = p->last_charge[i] = TRIGMAX / 2;
        p->resistance[i] = (int32_t)(RES_SCALE * ((float)p->charge[i] / (float)TRIGMAX));
        p->repeat[i] = 0;
        p->held[i] = 0;
    }
    p->pad[0] = p->pad[1] = 0;
}

int rg__a26_paddles_check(const rg__a26_paddles *p)
{
    for (int i = 0; i < 2; i++) {
        /* the charge stays within 0..TRIGMAX, the speed within 0..DISTANCE (no overflow when they add up), and the
         * resistance is the charge's (at most RES_SCALE) or Stella's "maximum" */
        if (p->charge[i] < 0 || p->charge[i] > TRIGMAX || p->last_charge[i] < 0 || p->last_charge[i] > TRIGMAX ||
            p->repeat[i] < 0 || p->repeat[i] > DISTANCE || p->held[i] > 1 ||
            (p->resistance[i] != RG__A26_RES_MAX && (p->resistance[i] < 0 || p->resistance[i] > (int32_t)RES_SCALE)))
            return rg__error(RG_ESTATE, "atari2600 state: paddle %d's charge, speed or resistance is out of range",
                             i);
    }
    return RG_OK;
}

void rg__a26_paddles_update(rg__a26_paddles *p, const uint8_t dec[2], const uint8_t inc[2])
{
    for (int i = 0; i < 2; i++) {
        /* each frame a button was held speeds the knob up, to DISTANCE after SENSITIVITY frames; like Stella the
         * speed is kept when the buttons are released */
        if (p->held[i] && ++p->repeat[i] > SENSITIVITY)
            p->repeat[i] = DISTANCE;
        p->held[i] = dec[i] | inc[i];
        if (dec[i] && p->charge[i] > p->repeat[i])
            p->charge[i] -= p->repeat[i];
        if (inc[i] && p->charge[i] + p->repeat[i] < CHARGE_MAX)
            p->charge[i] += p->repeat[i];
        if (p->charge[i] != p->last_charge[i])
            p->resistance[i] = (int32_t)(RES_SCALE * ((float)p->charge[i] / (float)TRIGMAX)); /* in float, as Stella */
        p->last_charge[i] = p->charge[i];
    }
}

uint8_t rg__a26_paddle_bit(int32_t resistance, int dumped, uint32_t cycles, uint32_t lines, double fps)
{
    if (resistance == 0)
        return 0x80;
    if (resistance == RG__A26_RES_MAX || dumped)
        return 0;
    uint32_t needed = (uint32_t)(1.216e-6 * resistance * lines * fps);
    return cycles > needed ? 0x80 : 0;
}
