/* The raw core's throughput with N instances on T threads: the physical limit a vector engine is measured against.
 * Thread t runs instances t, t + T, ... one frame each in turn, with nothing but the host's callbacks around
 * retro_run (no conversion, no variables, no Python), for the given time. bench_pool.py alternates it with the
 * engines under test so that both see the same machine.
 *
 *   bench_lanes --instances N --threads T --seconds S ROM     prints "<frames/s total> <frames/s per thread>" */
#define _POSIX_C_SOURCE 200809L
#include "retrogym/retrogym.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

#define MAX_INSTANCES 256

typedef struct lane {
    pthread_t thread;
    rg_emu **emus;
    size_t n;
    double seconds;
    unsigned long long frames;
} lane;

static uint16_t input(unsigned long long f, size_t i)
{
    return (uint16_t)((((f / 4) + i) * 2654435761u >> 9) & 0x0FF3);
}

static void *run_lane(void *arg)
{
    lane *l = arg;
    unsigned long long f = 0;
    for (int w = 0; w < 60; w++) /* warm-up */
        for (size_t i = 0; i < l->n; i++)
            rg_emu_run(l->emus[i]);
    double t0 = bench_seconds(CLOCK_MONOTONIC);
    while (bench_seconds(CLOCK_MONOTONIC) - t0 < l->seconds) {
        for (size_t i = 0; i < l->n; i++) {
            rg_emu_set_buttons(l->emus[i], 0, input(f, i));
            rg_emu_run(l->emus[i]);
        }
        f++;
    }
    l->frames = f * l->n;
    l->seconds = bench_seconds(CLOCK_MONOTONIC) - t0;
    return NULL;
}

int main(int argc, char **argv)
{
    size_t n = 1;
    unsigned threads = 1;
    double seconds = 1.0;
    const char *rom = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--instances") == 0 && i + 1 < argc)
            n = (size_t)atoi(argv[++i]);
        else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
            threads = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc)
            seconds = atof(argv[++i]);
        else
            rom = argv[i];
    }
    if (!rom || n < 1 || n > MAX_INSTANCES || threads < 1 || threads > n || seconds <= 0) {
        fprintf(stderr, "usage: bench_lanes --instances 1..%d --threads 1..N --seconds S ROM\n", MAX_INSTANCES);
        return 2;
    }
    static rg_emu *emus[MAX_INSTANCES];
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.log = bench_quiet;
    for (size_t i = 0; i < n; i++)
        if (rg_emu_open(&emus[i], rom, &o) != RG_OK) {
            fprintf(stderr, "bench_lanes: %s\n", rg_error_last());
            return 1;
        }
    /* Instances are grouped per thread as the pool groups environments: thread t owns a contiguous range. */
    lane lanes[MAX_INSTANCES];
    size_t start = 0;
    for (unsigned t = 0; t < threads; t++) {
        size_t count = n / threads + (t < n % threads);
        lanes[t] = (lane){.emus = &emus[start], .n = count, .seconds = seconds};
        start += count;
    }
    for (unsigned t = 1; t < threads; t++)
        pthread_create(&lanes[t].thread, NULL, run_lane, &lanes[t]);
    run_lane(&lanes[0]);
    double total = lanes[0].frames / lanes[0].seconds;
    for (unsigned t = 1; t < threads; t++) {
        pthread_join(lanes[t].thread, NULL);
        total += lanes[t].frames / lanes[t].seconds;
    }
    printf("%.0f %.0f\n", total, total / threads);
    for (size_t i = 0; i < n; i++)
        rg_emu_free(emus[i]);
    return 0;
}
