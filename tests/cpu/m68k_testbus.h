/* A 64 KiB RAM bus (mirrored over the 24-bit space) for the 68000 tests and bench; big-endian words. */
#ifndef RG_TESTS_M68K_TESTBUS_H
#define RG_TESTS_M68K_TESTBUS_H

#include <stdint.h>
#include <string.h>

#include "cpu/m68k/m68k.h"

typedef struct mbus {
    uint8_t mem[65536];
    long steps;        /* instructions (loop turns) left before the run returns */
    int iack_vector;   /* what M68K_IACK answers (-1: autovector) */
    int iack_level;    /* the level of the last acknowledge */
} mbus;

static inline uint16_t mbus_read(mbus *b, uint32_t addr)
{
    addr &= 0xFFFEu;
    return (uint16_t)(b->mem[addr] << 8 | b->mem[addr + 1]);
}
static inline void mbus_write(mbus *b, uint32_t addr, uint16_t v, int sel)
{
    addr &= 0xFFFEu;
    if (sel & 2) b->mem[addr] = (uint8_t)(v >> 8);
    if (sel & 1) b->mem[addr + 1] = (uint8_t)v;
}
static inline int mbus_iack(mbus *b, int level)
{
    b->iack_level = level;
    return b->iack_vector;
}
static inline void mbus_put16(mbus *b, uint32_t addr, uint16_t v)
{
    b->mem[addr & 0xFFFF] = (uint8_t)(v >> 8);
    b->mem[(addr + 1) & 0xFFFF] = (uint8_t)v;
}
static inline void mbus_put32(mbus *b, uint32_t addr, uint32_t v)
{
    mbus_put16(b, addr, (uint16_t)(v >> 16));
    mbus_put16(b, addr + 2, (uint16_t)v);
}
static inline uint32_t mbus_get32(const mbus *b, uint32_t addr)
{
    return (uint32_t)b->mem[addr] << 24 | (uint32_t)b->mem[addr + 1] << 16 | (uint32_t)b->mem[addr + 2] << 8 |
           b->mem[addr + 3];
}

#define M68K_FN mbus_run
#define M68K_CTX mbus
#define M68K_READ(b, addr, sel) ((void)(sel), mbus_read((b), (addr)))
#define M68K_WRITE(b, addr, v, sel) mbus_write((b), (addr), (v), (sel))
#define M68K_STOP(b) ((b)->steps-- <= 0)
#define M68K_IACK(b, level) mbus_iack((b), (level))
#include "cpu/m68k/m68k_exec.h"

/* Starts the CPU at pc with the queue filled from memory (as after a reset or a jump). */
static inline void mbus_start(rg_m68k *c, mbus *b, uint32_t pc, uint32_t ssp)
{
    rg__m68k_init(c);
    c->a[7] = ssp;
    c->ir = mbus_read(b, pc);
    c->irc = mbus_read(b, pc + 2);
    c->pc = pc + 4;
}

/* The mixed loop of the bench and of test_m68k_ops, at 0x1000. */
static const uint16_t m68k_mixed_loop[] = {
    0x7000,         /* 1000 moveq #0,d0 */
    0x323C, 0x00FF, /* 1002 move.w #255,d1 */
    0x41F8, 0x8000, /* 1006 lea $8000.w,a0 */
    0xD081,         /* 100A loop: add.l d1,d0 */
    0x30C0,         /* 100C move.w d0,(a0)+ */
    0xE348,         /* 100E lsl.w #1,d0 */
    0xC4C1,         /* 1010 mulu.w d1,d2 */
    0x4A82,         /* 1012 tst.l d2 */
    0x6702,         /* 1014 beq.s 1018 */
    0x5282,         /* 1016 addq.l #1,d2 */
    0x51C9, 0xFFF0, /* 1018 dbra d1,100A */
    0x60E2,         /* 101C bra.s 1000 */
};

static inline void mbus_load_mixed(mbus *b)
{
    for (size_t i = 0; i < sizeof m68k_mixed_loop / sizeof m68k_mixed_loop[0]; i++)
        mbus_put16(b, 0x1000 + 2 * (uint32_t)i, m68k_mixed_loop[i]);
}

#endif
