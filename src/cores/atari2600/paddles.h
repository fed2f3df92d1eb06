/* Paddle controllers as Stella 3.9.3 emulates them from digital input (its Paddles class): each knob holds a
 * charge 0..4096 that held left/right buttons move, slowly at first and then 60 units a frame; the charge gives
 * the resistance that sets how long after VBLANK releases the capacitors an INPTx bit 7 reads 1. */
#ifndef RG_SRC_CORES_ATARI2600_PADDLES_H
#define RG_SRC_CORES_ATARI2600_PADDLES_H

#include <stdint.h>

#define RG__A26_RES_MAX INT32_MAX /* Stella's "maximum resistance": the input never charges */

/* The two paddles of one port (plain data, part of the machine state). */
typedef struct rg__a26_paddles {
    int32_t charge[2];
    int32_t last_charge[2];
    int32_t resistance[2];   /* [0]: INPT0/INPT2, [1]: INPT1/INPT3 */
    int32_t repeat[2];       /* current speed of a held button */
    uint8_t held[2];         /* a button was held in the last frame */
    uint8_t pad[2];
} rg__a26_paddles;

void rg__a26_paddles_reset(rg__a26_paddles *p);
/* One frame of input for the two paddles of a port: knob i turned by dec[i]/inc[i]. */
/* Checks the paddles of a state taken from outside (a save state): charges, speeds and resistances in the ranges
 * the updates keep them in. RG_ESTATE with a message otherwise. */
int rg__a26_paddles_check(const rg__a26_paddles *p);
void rg__a26_paddles_update(rg__a26_paddles *p, const uint8_t dec[2], const uint8_t inc[2]);
/* INPTx bit 7 for a resistance, `cycles` CPU cycles after the capacitors were released, with Stella's timing
 * (it scales by the last frame's line count and the frame rate). */
uint8_t rg__a26_paddle_bit(int32_t resistance, int dumped, uint32_t cycles, uint32_t lines, double fps);

#endif
