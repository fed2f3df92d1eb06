/* The 6532 RIOT: interval timer and I/O ports (see riot.h). */
#include "cores/atari2600/riot.h"

#include "base/base.h"

#include <string.h>

#define TIMER_FLAG 0x80u
#define PA7_FLAG 0x40u

void rg__a26_riot_reset(rg__a26_riot *r, uint8_t timer_value)
{
    memset(r, 0, sizeof *r);
    r->shift = 10;
    r->timer = (uint32_t)timer_value << 10;
}

/* Clocks left before the timer passes zero; negative after it (then it counts one per cycle). */
static int32_t timer_clocks(const rg__a26_riot *r, uint32_t cycles)
{
    return rg__a26_riot_count(r, cycles);
}

uint8_t rg__a26_riot_read(rg__a26_riot *r, uint16_t addr, uint32_t cycles, const rg__a26_inputs *in)
{
    switch (addr & 7u) {
    case 0: /* SWCHA: a pin reads low when the device pulls it low or it is an output driven low */
        return (uint8_t)((r->outa | ~r->ddra) & in->swcha);
    case 1:
        return r->ddra;
    case 2: /* SWCHB: output bits read back what was written */
        return (uint8_t)((r->outb & r->ddrb) | (in->swchb & ~r->ddrb));
    case 3:
        return r->ddrb;
    case 4:
    case 6: { /* INTIM; reading it clears the timer flag (not in the cycle the timer passes zero) */
        int32_t t = timer_clocks(r, cycles);
        if (t != -1)
            r->cleared = cycles;
        /* Stella tests bit 18 of the count: set for a negative count (and for a count 2^18 past zero, which
         * never happens before the program rewrites the timer). */
        if (!((uint32_t)t & 0x40000u))
            return (uint8_t)((uint32_t)t >> r->shift);
        return (uint8_t)t;
    }
    default: { /* TIMINT: bit 7 the timer passed zero since the flag was cleared, bit 6 the PA7 edge (cleared) */
        int32_t t = timer_clocks(r, cycles);
        uint32_t zero = r->timer_set + r->timer + 1u; /* the cycle the count became -1 */
        uint8_t v = r->int_flag;
        if (t < 0 && (int32_t)(r->cleared - zero) < 0)
            v |= TIMER_FLAG;
        r->int_flag &= (uint8_t)~PA7_FLAG;
        return v;
    }
    }
}

void rg__a26_riot_write(rg__a26_riot *r, uint16_t addr, uint8_t value, uint32_t cycles)
{
    static const uint8_t k_shift[4] = {0, 3, 6, 10};
    if (!(addr & 4u)) {
        switch (addr & 3u) {
        case 0: r->outa = value; break;
        case 1: r->ddra = value; break;
        case 2: r->outb = value; break;
        default: r->ddrb = value; break;
        }
    } else if ((addr & 0x14u) == 0x14u) { /* TIM1T, TIM8T, TIM64T, T1024T */
        r->shift = k_shift[addr & 3u];
        r->timer = (uint32_t)value << r->shift;
        r->timer_set = cycles;
        r->cleared = cycles;
    } else {
        r->edge_positive = (uint8_t)(addr & 1u);
    }
}

int rg__a26_riot_check(const rg__a26_riot *r)
{
    if (r->shift != 0 && r->shift != 3 && r->shift != 6 && r->shift != 10)
        return rg__error(RG_ESTATE, "atari2600 state: the RIOT timer interval shift is %u (0, 3, 6 or 10)",
                         (unsigned)r->shift);
    if (r->timer > 0xFFu << r->shift || (r->timer & ((1u << r->shift) - 1u)))
        return rg__error(RG_ESTATE, "atari2600 state: the RIOT timer count %u is not a byte << %u",
                         (unsigned)r->timer, (unsigned)r->shift);
    if ((r->int_flag & ~PA7_FLAG) || r->edge_positive > 1)
        return rg__error(RG_ESTATE, "atari2600 state: the RIOT flags are out of range");
    return RG_OK;
}
