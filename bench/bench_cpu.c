/* Speed of the 6502 interpreter alone: Klaus Dormann's functional test (../shared/cpu-tests/6502) on a flat RAM bus,
 * run to its success trap, with interrupt handling compiled in (NES-style) and out (2600-style).
 *
 * usage: bench_cpu [runs] [path/to/6502_functional_test.bin]
 * Prints emulated cycles per second of wall time for each variant (best of the runs). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/m6502/m6502.h"

typedef struct flat {
    uint8_t mem[65536];
    uint64_t cycles;
    long steps;
} flat;

#define M6502_CTX flat
#define M6502_READ(c, ad) ((c)->cycles++, (c)->mem[(ad)])
#define M6502_WRITE(c, ad, v) ((c)->cycles++, (void)((c)->mem[(ad)] = (v)))
#define M6502_STOP(c) ((c)->steps-- <= 0)

#define M6502_FN run_with_interrupts
#include "cpu/m6502/m6502_exec.h"
#undef M6502_FN

#define M6502_FN run_without_interrupts
#define M6502_INTERRUPTS 0
#include "cpu/m6502/m6502_exec.h"
#undef M6502_FN
#undef M6502_INTERRUPTS

#define SUCCESS_PC 0x3469

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Runs the program from $0400 until pc sits on the success trap; returns seconds, fills cycles. */
static double run_once(flat *bus, const uint8_t *image, int with_interrupts, uint64_t *cycles)
{
    memcpy(bus->mem, image, sizeof bus->mem);
    bus->cycles = 0;
    rg_m6502 cpu;
    rg__m6502_init(&cpu);
    cpu.pc = 0x0400;
    cpu.s = 0xFD;
    double t0 = now();
    for (int chunk = 0; chunk < 2000 && cpu.pc != SUCCESS_PC; chunk++) {
        bus->steps = 100000;
        if ((with_interrupts ? run_with_interrupts(&cpu, bus) : run_without_interrupts(&cpu, bus)) != 0)
            break;
    }
    double t = now() - t0;
    *cycles = bus->cycles;
    return cpu.pc == SUCCESS_PC ? t : -1.0;
}

int main(int argc, char **argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : 5;
    char path[1024];
    if (argc > 2)
        snprintf(path, sizeof path, "%s", argv[2]);
    else
        snprintf(path, sizeof path, "%s/../shared/cpu-tests/6502/6502_functional_test.bin", RG_SOURCE_DIR);
    static uint8_t image[65536];
    FILE *f = fopen(path, "rb");
    if (!f || fread(image, 1, sizeof image, f) != sizeof image) {
        fprintf(stderr, "bench_cpu: cannot read %s\n", path);
        return 1;
    }
    fclose(f);
    static flat bus;
    for (int variant = 0; variant < 2; variant++) {
        double best = 1e9;
        uint64_t cycles = 0;
        for (int r = 0; r < runs; r++) {
            double t = run_once(&bus, image, variant == 0, &cycles);
            if (t < 0) {
                fprintf(stderr, "bench_cpu: the functional test did not reach $%04X\n", SUCCESS_PC);
                return 1;
            }
            if (t < best)
                best = t;
        }
        printf("%-22s %llu cycles in %.3f s: %.0f M cycles/s\n",
               variant == 0 ? "interrupts compiled in" : "interrupts compiled out", (unsigned long long)cycles,
               best, (double)cycles / best * 1e-6);
    }
    return 0;
}
