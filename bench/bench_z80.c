/* Speed of the Z80 interpreter alone: a loop of mixed code (indexed loads and stores, 8- and 16-bit arithmetic,
 * CB and DDCB bit operations, calls and returns, pushes and pops, relative jumps, an LDIR block copy, port I/O) on a
 * flat 64 KiB RAM bus that counts T-states.
 *
 * usage: bench_z80 [runs] [millions of instructions]
 * Prints instructions and T-states per second of wall time (best of the runs; default 5 runs of 20 M instructions)
 * and the ratio to a 3.58 MHz Master System Z80. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/z80/z80.h"

typedef struct flat {
    uint8_t mem[65536];
    uint64_t t;
    long steps;
    uint8_t port;
} flat;

#define Z80_FN flat_run
#define Z80_CTX flat
#define Z80_FETCH(b, ad, ir) ((b)->t += 4, (void)(ir), (b)->mem[(ad)])
#define Z80_READ(b, ad) ((b)->t += 3, (b)->mem[(ad)])
#define Z80_WRITE(b, ad, v) ((b)->t += 3, (void)((b)->mem[(ad)] = (v)))
#define Z80_IN(b, p) ((b)->t += 4, (uint8_t)((p) >> 8))
#define Z80_OUT(b, p, v) ((b)->t += 4, (void)(p), (void)((b)->port = (v)))
#define Z80_INTERNAL(b, n) ((b)->t += (uint64_t)(n))
#define Z80_STOP(b) ((b)->steps-- <= 0)
#include "cpu/z80/z80_exec.h"

/* The program, assembled here: emit bytes, patch forward references. */
typedef struct as {
    uint8_t *m;
    unsigned pc;
} as;

static void emit(as *a, int n, ...)
{
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        a->m[a->pc++ & 0xFFFFu] = (uint8_t)va_arg(ap, int);
    va_end(ap);
}

static void build(uint8_t *m)
{
    as a = {m, 0};
    emit(&a, 3, 0x31, 0x00, 0xF0);             /* LD SP,$F000 */
    emit(&a, 4, 0xDD, 0x21, 0x00, 0x80);       /* LD IX,$8000 */
    emit(&a, 3, 0x21, 0x00, 0x40);             /* LD HL,$4000 */
    unsigned outer = a.pc;
    emit(&a, 2, 0x06, 0x00);                   /* LD B,0 (256 turns) */
    unsigned loop = a.pc;
    emit(&a, 3, 0xDD, 0x7E, 0x01);             /* LD A,(IX+1) */
    emit(&a, 1, 0x80);                         /* ADD A,B */
    emit(&a, 3, 0xDD, 0x77, 0x02);             /* LD (IX+2),A */
    emit(&a, 1, 0x23);                         /* INC HL */
    emit(&a, 1, 0x7E);                         /* LD A,(HL) */
    emit(&a, 1, 0xA9);                         /* XOR C */
    emit(&a, 1, 0x4F);                         /* LD C,A */
    emit(&a, 2, 0xCB, 0x01);                   /* RLC C */
    emit(&a, 2, 0xCB, 0x5E);                   /* BIT 3,(HL) */
    unsigned call = a.pc;
    emit(&a, 3, 0xCD, 0x00, 0x00);             /* CALL sub */
    emit(&a, 1, 0xC5);                         /* PUSH BC */
    emit(&a, 1, 0xD1);                         /* POP DE */
    emit(&a, 2, 0xDB, 0x7F);                   /* IN A,($7F) */
    emit(&a, 2, 0xD3, 0xBE);                   /* OUT ($BE),A */
    emit(&a, 4, 0xDD, 0xCB, 0x03, 0xCE);       /* SET 1,(IX+3) */
    emit(&a, 2, 0x20, 0x01);                   /* JR NZ,+1 */
    emit(&a, 1, 0x1C);                         /* INC E */
    emit(&a, 2, 0x10, (uint8_t)(loop - (a.pc + 2u))); /* DJNZ loop */
    emit(&a, 3, 0x11, 0x00, 0x50);             /* LD DE,$5000 */
    emit(&a, 3, 0x01, 0x40, 0x00);             /* LD BC,$0040 */
    emit(&a, 1, 0xE5);                         /* PUSH HL */
    emit(&a, 2, 0xED, 0xB0);                   /* LDIR */
    emit(&a, 1, 0xE1);                         /* POP HL */
    emit(&a, 3, 0xC3, outer & 0xFFu, outer >> 8); /* JP outer */
    unsigned sub = a.pc;
    m[call + 1] = (uint8_t)sub;
    m[call + 2] = (uint8_t)(sub >> 8);
    emit(&a, 1, 0xEB);                         /* EX DE,HL */
    emit(&a, 2, 0xFE, 0x40);                   /* CP $40 */
    emit(&a, 2, 0xDE, 0x05);                   /* SBC A,5 */
    emit(&a, 3, 0xED, 0x52);                   /* SBC HL,DE */
    a.pc--;
    emit(&a, 1, 0xEB);                         /* EX DE,HL */
    emit(&a, 1, 0xC9);                         /* RET */
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : 5;
    long millions = argc > 2 ? atol(argv[2]) : 20;
    if (runs < 1 || millions < 1) {
        fprintf(stderr, "usage: bench_z80 [runs] [millions of instructions]\n");
        return 2;
    }
    flat *bus = calloc(1, sizeof *bus);
    uint8_t *image = calloc(1, 65536);
    if (!bus || !image)
        return 1;
    build(image);
    double best = 1e30;
    uint64_t t_states = 0;
    for (int r = 0; r < runs; r++) {
        memcpy(bus->mem, image, 65536);
        bus->t = 0;
        bus->steps = millions * 1000000L;
        rg_z80 cpu;
        rg__z80_init(&cpu);
        double t0 = now();
        flat_run(&cpu, bus);
        double dt = now() - t0;
        if (dt < best) {
            best = dt;
            t_states = bus->t;
        }
    }
    double ips = (double)millions * 1e6 / best;
    double tps = (double)t_states / best;
    printf("z80 mixed loop: %ld M instructions, %llu T-states in %.3f s: %.1f M instructions/s, %.1f M T-states/s "
           "(%.0fx a 3.58 MHz Z80)\n",
           millions, (unsigned long long)t_states, best, ips / 1e6, tps / 1e6, tps / 3579545.0);
    free(image);
    free(bus);
    return 0;
}
