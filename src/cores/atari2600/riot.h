/* The 6532 RIOT of the Atari 2600: the interval timer and the two I/O ports (the 128 bytes of RAM live in the
 * machine state). The timer follows Stella 3.9.3: it holds value << shift at the cycle it was set and counts down
 * one per CPU cycle; after zero it reads as the low byte of the negative count (one step per cycle). The timer
 * flag (TIMINT bit 7) is set by the pass through zero and cleared by timer writes and INTIM reads, except a read in
 * the very cycle of the pass. */
#ifndef RG_SRC_CORES_ATARI2600_RIOT_H
#define RG_SRC_CORES_ATARI2600_RIOT_H

#include <stdint.h>

typedef struct rg__a26_riot {
    uint32_t timer;       /* value << shift */
    uint32_t timer_set;   /* frame-relative CPU cycle of the last timer write (moved at each frame start) */
    uint32_t cleared;     /* cycle the timer flag was last cleared (INTIM read, timer write); same base */
    uint8_t shift;        /* 0, 3, 6 or 10 */
    uint8_t ddra, ddrb, outa, outb;
    uint8_t int_flag;     /* bit 6: PA7 edge (the timer flag comes from `cleared` and the count) */
    uint8_t edge_positive;
    uint8_t pad;
} rg__a26_riot;

/* The inputs the ports read (set by the core glue before each frame). */
typedef struct rg__a26_inputs {
    uint8_t swcha;        /* joystick pins, active low: P0 right/left/down/up in bits 7-4, P1 in bits 3-0 */
    uint8_t swchb;        /* console switches as read: bit 0 reset, 1 select (0 = pressed), 3 colour, 6/7 difficulty */
    uint8_t fire[2];      /* 0x80 when the button is up, 0 when pressed */
} rg__a26_inputs;

/* Power-on; `timer_value` is the random start value (Stella draws it from its generator). */
/* The timer's count at `cycles` (value << shift while it runs down, negative after zero). */
static inline int32_t rg__a26_riot_count(const rg__a26_riot *r, uint32_t cycles)
{
    return (int32_t)(r->timer - (cycles - r->timer_set));
}

void rg__a26_riot_reset(rg__a26_riot *r, uint8_t timer_value);
uint8_t rg__a26_riot_read(rg__a26_riot *r, uint16_t addr, uint32_t cycles, const rg__a26_inputs *in);
void rg__a26_riot_write(rg__a26_riot *r, uint16_t addr, uint8_t value, uint32_t cycles);
/* Checks a RIOT state taken from outside (a save state): a timer shift of 0, 3, 6 or 10, a count that a timer
 * write can give, known flag bits. RG_ESTATE with a message naming the field otherwise. */
int rg__a26_riot_check(const rg__a26_riot *r);

#endif
