/* Checks of machine states that come from outside (save states, possibly edited or damaged): a state is taken only
 * if every field the machine uses as an index, shift, bank, counter or clock holds a value the machine itself can
 * produce, so that running it stays well defined. Fields whose every value is legal (RAM, registers, the data bus)
 * are not checked. */
#include "cores/atari2600/a26.h"

int rg__a26_state_check(const rg__a26_state *s, const uint8_t *rom, size_t rom_size)
{
    const char *why = rg__m6502_check(&s->cpu);
    if (why)
        return rg__error(RG_ESTATE, "atari2600 state: %s", why);
    /* the 6507 has no interrupt pins and the 2600 no 2A03: the machine never sets these */
    if (s->cpu.nmi_pending || s->cpu.irq_line || s->cpu.poll || s->cpu.poll_arg || s->cpu.no_decimal)
        return rg__error(RG_ESTATE, "atari2600 state: the CPU has interrupt or 2A03 state the 6507 cannot have");
    if (s->partial > 1 || s->color_loss > 1)
        return rg__error(RG_ESTATE, "atari2600 state: a frame flag is above 1");
    /* A run ends a frame still going on past the cut, so a frame in progress is at most that long and a finished
     * one at most a run longer: the clocks (cycles x 3) then stay far below 2^31. */
    uint32_t most = s->partial ? RG__A26_FRAME_CYCLES_CUT : RG__A26_FRAME_CYCLES_CUT + RG__A26_RUN_CYCLES_MAX;
    if (s->cycles > most)
        return rg__error(RG_ESTATE, "atari2600 state: %lu CPU cycles into the frame (at most %lu)",
                         (unsigned long)s->cycles, (unsigned long)most);
    if (s->rng >= RG__A26_RNG_MOD)
        return rg__error(RG_ESTATE, "atari2600 state: the random generator is out of its range");
    int rc = rg__a26_riot_check(&s->riot);
    if (rc == RG_OK)
        rc = rg__tia_check(&s->tia, (int32_t)(s->cycles * 3u));
    if (rc == RG_OK)
        rc = rg__a26_cart_check(&s->cart, rom, rom_size);
    for (int p = 0; p < 2 && rc == RG_OK; p++)
        rc = rg__a26_paddles_check(&s->paddles[p]);
    return rc;
}
