/* The NES APU (2A03 sound): pulse x2, triangle, noise, DMC, frame counter (owned by apu*.c).
 *
 * Contract with the machine (nes.h):
 * - rg__nes_apu_run(m, cycle) brings the APU to CPU cycle `cycle`: length counters, envelopes, sweeps, the frame
 *   counter and its IRQ (rg__nes_irq_set with RG__NES_IRQ_FRAME), the DMC and its IRQ (RG__NES_IRQ_DMC); samples
 *   into m->abuf only when m->audio is set. It sets m->apu_sync_at to the next CPU cycle at which it may change
 *   something the CPU sees (an IRQ edge, a DMC fetch).
 * - DMC DMA: when the DMC needs a sample byte the APU sets `dmc_fetch` (address in dmc_fetch_addr); the machine
 *   stalls the CPU as the hardware does, reads the byte and calls rg__nes_apu_dmc_fill.
 * - rg__nes_apu_write ($4000-$4013, $4015, $4017) and rg__nes_apu_read_status ($4015) happen at the current CPU
 *   cycle; the machine has run the APU up to it before the call.
 *
 * Clock convention (docs/nes.md, APU): `cycle` is the next CPU cycle the APU has not yet run; run(m, c) runs the
 * cycles cycle .. c-1. A register access at cycle c (after run(m, c)) sees the APU as it is at the start of cycle c,
 * before that cycle's own frame-counter step: so a flag set in cycle c is seen by a read in cycle c + 1, and a read
 * in the very cycle the frame IRQ flag is set reads it clear and does not stop it being set. An IRQ raised in cycle
 * c is in st.irq after the machine ran the APU at cycle c + 1 (m->apu_sync_at = c + 1), except the frame IRQ, whose
 * line follows its flag one cycle later (the flag read in cycle c + 1, the line in st.irq from the run at c + 2: the
 * CPU takes the IRQ as blargg's 08.irq_timing and cpu_interrupts_v2 time it, with the machine showing the line to the
 * CPU as nes.h says). The DMC IRQ is raised by rg__nes_apu_dmc_fill at once.
 * After loading a state the machine calls rg__nes_apu_run(m, st.cycles) once: it recomputes m->apu_sync_at.
 * At the end of a run the machine calls rg__nes_apu_run(m, st.cycles) so the run's samples are complete.
 *
 * Samples: mono int16 at RG__NES_APU_RATE Hz (each the mean of the channels' outputs over the CPU cycles it covers,
 * mixed by the non-linear NES mixer formulas), appended to m->abuf (grown with realloc; m->aerr set when that
 * fails). Without m->audio the tone generators (pulse/triangle/noise timers and sequencers) stand still: nothing
 * the CPU can see depends on them. */
#ifndef RG_SRC_CORES_NES_APU_H
#define RG_SRC_CORES_NES_APU_H

#include <stdint.h>

struct rg__nes_machine;

#define RG__NES_APU_RATE 44100u
/* One sample per RG__NES_APU_CLOCK_DEN / RG__NES_APU_CLOCK_NUM CPU cycles: the NTSC CPU clock is 236250000 / 132 Hz. */
#define RG__NES_APU_CLOCK_NUM (RG__NES_APU_RATE * 132u)
#define RG__NES_APU_CLOCK_DEN 236250000u

/* Envelope unit (pulses, noise). */
typedef struct rg__nes_apu_env {
    uint8_t start;            /* restart at the next quarter frame ($4003/$4007/$400F write) */
    uint8_t divider;          /* 0-15 */
    uint8_t decay;            /* 0-15 */
    uint8_t pad;
} rg__nes_apu_env;

typedef struct rg__nes_apu_pulse {
    uint16_t period;          /* 11-bit timer period */
    uint16_t timer;           /* CPU cycles to the next duty step, 1-4096 (audio only) */
    uint8_t ctrl;             /* $4000/$4004: duty, length halt/envelope loop, constant volume, volume */
    uint8_t sweep;            /* $4001/$4005: enable, period, negate, shift */
    uint8_t sweep_div;        /* 0-7 */
    uint8_t sweep_reload;
    uint8_t length;           /* length counter */
    uint8_t seq;              /* duty step 0-7 (audio only) */
    uint8_t pad[2];
    rg__nes_apu_env env;
} rg__nes_apu_pulse;

typedef struct rg__nes_apu_triangle {
    uint16_t period;          /* 11-bit timer period */
    uint16_t timer;           /* CPU cycles to the next step, 1-2048 (audio only) */
    uint8_t ctrl;             /* $4008: control (length halt) and linear counter reload value */
    uint8_t linear;           /* linear counter 0-127 */
    uint8_t linear_reload;    /* reload flag (set by a $400B write) */
    uint8_t length;
    uint8_t seq;              /* step 0-31 (audio only) */
    uint8_t pad[3];
} rg__nes_apu_triangle;

typedef struct rg__nes_apu_noise {
    uint16_t timer;           /* CPU cycles to the next shift, 1-4068 (audio only) */
    uint16_t lfsr;            /* 15-bit shift register, never 0 */
    uint8_t ctrl;             /* $400C: length halt/envelope loop, constant volume, volume */
    uint8_t mode_period;      /* $400E: mode (bit 7) and period index */
    uint8_t length;
    uint8_t pad;
    rg__nes_apu_env env;
} rg__nes_apu_noise;

typedef struct rg__nes_apu_dmc {
    uint8_t ctrl;             /* $4010: IRQ enable, loop, rate index */
    uint8_t start;            /* $4012: sample address = $C000 + 64 * start */
    uint8_t len;              /* $4013: sample length = 16 * len + 1 */
    uint8_t level;            /* output level 0-127 */
    uint16_t addr;            /* address of the next sample byte ($8000-$FFFF) */
    uint16_t remaining;       /* bytes left to fetch (0-4081) */
    uint16_t timer;           /* CPU cycles to the next output clock, 1-428 */
    uint8_t buffer;           /* the sample buffer ... */
    uint8_t full;             /* ... and whether it holds a byte */
    uint8_t shift;            /* output shift register */
    uint8_t bits;             /* bits left in the output cycle, 1-8 */
    uint8_t silence;          /* the output cycle is silent */
    uint8_t irq;              /* DMC IRQ flag ($4015 bit 7) */
} rg__nes_apu_dmc;

typedef struct rg__nes_apu {
    uint64_t cycle;           /* the CPU cycle the APU has been run to (the next one it has not run) */
    uint8_t dmc_fetch;        /* the DMC waits for a byte (the machine runs the DMA) */
    uint8_t pad;
    uint16_t dmc_fetch_addr;
    /* the rest is the APU's */
    uint8_t enabled;          /* $4015 bits 0-3: the length counters that may be loaded */
    uint8_t fc_reg;           /* the last value written to $4017 (rewritten at reset) */
    uint8_t fc_mode;          /* the sequence running: 0 four-step, 1 five-step */
    uint8_t fc_irq;           /* frame IRQ flag ($4015 bit 6) */
    uint8_t fc_pending;       /* a $4017 write waits to restart the sequence (3 or 4 cycles) ... */
    uint8_t fc_pending_mode;  /* ... in this mode ... */
    uint16_t fc_count;        /* CPU cycles since the sequence (re)started */
    uint64_t fc_reset_at;     /* ... at this cycle */
    uint64_t len_done_at;     /* cycle + 1 of a half-frame step whose length clock a register write ran early */
    uint8_t len_clocked;      /* ... and the channels (bits 0-3) whose counter it decremented */
    uint8_t pad2[7];
    uint64_t fc_line_at;      /* cycle at which the frame IRQ line follows a flag set in the cycle before (0: none) */
    uint64_t dmc_request_at;  /* cycle at which the DMC requests a byte (0: none): the cycle after the output unit
                               * emptied the buffer, or the odd cycle after a $4015 write that started a sample
                               * with the buffer empty (the machine's halt comes a cycle after it saw the request:
                               * on a put cycle, on a get cycle for the $4015 start; the machine's gets are odd) */
    rg__nes_apu_pulse pulse[2];
    rg__nes_apu_triangle tri;
    rg__nes_apu_noise noise;
    rg__nes_apu_dmc dmc;
    /* sample synthesis (audio only): the output clock and the channel sums of the sample in progress */
    uint32_t sample_acc;      /* 0 .. RG__NES_APU_CLOCK_DEN - 1 */
    uint32_t sum_n;           /* CPU cycles summed (0-41) */
    uint32_t sum_pulse, sum_tri, sum_noise, sum_dmc;
} rg__nes_apu;

void rg__nes_apu_power(rg__nes_apu *a);
/* The reset button: $4015 cleared, the last $4017 value written again (call after running the APU to now). */
void rg__nes_apu_reset(rg__nes_apu *a);
void rg__nes_apu_run(struct rg__nes_machine *m, uint64_t cycle);
void rg__nes_apu_write(struct rg__nes_machine *m, uint16_t addr, uint8_t value);
/* $4015 (bit 5 is the open bus, from st.open_bus); clears the frame IRQ flag. */
uint8_t rg__nes_apu_read_status(struct rg__nes_machine *m);
void rg__nes_apu_dmc_fill(struct rg__nes_machine *m, uint8_t value);
/* NULL when valid, else a short static description of the first bad field. */
const char *rg__nes_apu_check(const rg__nes_apu *a);
/* The RG__NES_IRQ_FRAME / RG__NES_IRQ_DMC bits the APU asserts (a loaded state's st.irq must agree). */
unsigned rg__nes_apu_irq_bits(const rg__nes_apu *a);
/* What rg__nes_apu_check cannot see alone, for the machine's state check: the APU's clock not ahead of the CPU's
 * `cycles` nor more than RG__NES_RUN_CYCLES_MAX behind it (a run would otherwise have to catch up an arbitrary
 * stretch), and the APU's bits of `irq` (st.irq) as its flags say. NULL when valid. */
const char *rg__nes_apu_check_at(const rg__nes_apu *a, uint64_t cycles, unsigned irq);

/* apu_synth.c (internal): the tone generators and samples over n cycles with no APU event inside. */
void rg__nes_apu_synth(struct rg__nes_machine *m, uint64_t n);
/* Whether the pulse's sweep unit silences it (period < 8 or target above $7FF). */
int rg__nes_apu_pulse_muted(const rg__nes_apu_pulse *p);

#endif
