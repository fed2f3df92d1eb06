/* A flat 64 KiB RAM bus for the 6502 tests: counts cycles, logs the first accesses of a run, can raise the
 * interrupt lines at a chosen bus cycle, and instantiates the interpreter as tbus_run. */
#ifndef RG_TESTS_CPU_M6502_TESTBUS_H
#define RG_TESTS_CPU_M6502_TESTBUS_H

#include <stdint.h>
#include <string.h>

#include "cpu/m6502/m6502.h"

#define TBUS_LOG_CAP 64

typedef struct tbus_access {
    uint16_t addr;
    uint8_t value;
    uint8_t write;
} tbus_access;

typedef struct tbus {
    uint8_t mem[65536];
    uint64_t cycles;           /* bus calls since the last tbus_step */
    long steps;                /* instructions (or interrupt sequences) left before M6502_STOP */
    tbus_access log[TBUS_LOG_CAP];
    size_t nlog;
    /* After bus cycle number hook_cycle (1-based) of a run, raise the lines below on hook_cpu. 0: no hook. */
    uint64_t hook_cycle;
    rg_m6502 *hook_cpu;
    uint8_t hook_irq, hook_nmi;
} tbus;

static inline void tbus_note(tbus *b, uint16_t addr, uint8_t value, uint8_t write)
{
    if (b->nlog < TBUS_LOG_CAP)
        b->log[b->nlog++] = (tbus_access){addr, value, write};
    b->cycles++;
    if (b->hook_cycle && b->cycles == b->hook_cycle) {
        if (b->hook_irq)
            b->hook_cpu->irq_line = 1;
        if (b->hook_nmi)
            b->hook_cpu->nmi_pending = 1;
    }
}

static inline uint8_t tbus_read(tbus *b, uint16_t addr)
{
    uint8_t v = b->mem[addr];
    tbus_note(b, addr, v, 0);
    return v;
}

static inline void tbus_write(tbus *b, uint16_t addr, uint8_t v)
{
    b->mem[addr] = v;
    tbus_note(b, addr, v, 1);
}

static inline int tbus_stop(tbus *b)
{
    if (b->steps <= 0)
        return 1;
    b->steps--;
    return 0;
}

#define M6502_FN tbus_run
#define M6502_CTX tbus
#define M6502_READ(c, ad) tbus_read((c), (ad))
#define M6502_WRITE(c, ad, v) tbus_write((c), (ad), (v))
#define M6502_STOP(c) tbus_stop(c)
#include "cpu/m6502/m6502_exec.h"

/* Clears memory and sets the CPU to pc with s = $FD, all flags clear but bit 5. */
static inline void tbus_setup(tbus *b, rg_m6502 *c, uint16_t pc)
{
    memset(b, 0, sizeof *b);
    rg__m6502_init(c);
    c->pc = pc;
    c->s = 0xFD;
    c->p = RG_M6502_U;
}

/* Runs n instructions; the log and the cycle count start afresh. Returns what tbus_run returned. */
static inline int tbus_step(tbus *b, rg_m6502 *c, long n)
{
    b->nlog = 0;
    b->cycles = 0;
    b->steps = n;
    return tbus_run(c, b);
}

/* Copies bytes into memory at addr. */
static inline void tbus_poke(tbus *b, uint16_t addr, const uint8_t *bytes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        b->mem[(uint16_t)(addr + i)] = bytes[i];
}

#endif
