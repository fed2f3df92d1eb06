/* Memory search speed and memory (issue 19, docs/search.md "Speed and memory"): the first value search over a big
 * address space with all 44 default types, a narrowing round, a delta baseline and a delta round, and the bytes each
 * search holds. Memory is game-like: half zeros, a quarter small numbers, a quarter anything.
 * Usage: bench_search [KIB] (default: 512 and 128). */
#define _GNU_SOURCE
#include "bench_util.h"

#include <retrogym/search.h>

#include <stdio.h>
#include <stdlib.h>

#define RUNS 5

static void fill(uint8_t *ram, size_t size, unsigned seed)
{
    srand(seed);
    for (size_t i = 0; i < size; i++) {
        int r = rand() % 4;
        ram[i] = (uint8_t)(r < 2 ? 0 : r == 2 ? rand() % 10 : rand());
    }
}

static double ms_since(double t0)
{
    return (bench_seconds(CLOCK_THREAD_CPUTIME_ID) - t0) * 1e3;
}

static void run(size_t kib, unsigned word)
{
    size_t size = kib * 1024;
    uint8_t *ram = malloc(size);
    rg_gamedata *gd;
    rg_gamedata_create(&gd);
    rg_mem_block b = {0x02000000, size, ram};
    rg_gamedata_bind_blocks(gd, &b, 1, word);
    const int64_t values[] = {1234, 3, 1, 0};
    for (size_t vi = 0; vi < sizeof values / sizeof values[0]; vi++) {
        double first[RUNS], second[RUNS];
        uint64_t n1 = 0, n2 = 0;
        size_t m1 = 0, m2 = 0;
        for (int r = 0; r < RUNS; r++) {
            fill(ram, size, 1 + (unsigned)r);
            rg_searchset *set;
            rg_searchset_create(&set);
            double t0 = bench_seconds(CLOCK_THREAD_CPUTIME_ID);
            if (rg_search_value(set, "v", gd, values[vi]) != RG_OK) {
                fprintf(stderr, "search: %s\n", rg_error_last());
                exit(1);
            }
            first[r] = ms_since(t0);
            rg_search_result_count(set, "v", &n1);
            rg_search_memory(set, "v", &m1);
            for (size_t i = 0; i < size; i += 7) /* some memory changes */
                ram[i] ^= 1;
            t0 = bench_seconds(CLOCK_THREAD_CPUTIME_ID);
            rg_search_value(set, "v", gd, values[vi]);
            second[r] = ms_since(t0);
            rg_search_result_count(set, "v", &n2);
            rg_search_memory(set, "v", &m2);
            rg_searchset_free(set);
        }
        qsort(first, RUNS, sizeof first[0], bench_cmp_double);
        qsort(second, RUNS, sizeof second[0], bench_cmp_double);
        printf("%4zu KiB%s value %-5lld first %7.1f ms  %9llu candidates %8.1f KiB | second %6.1f ms  %8llu "
               "candidates %8.1f KiB\n",
               kib, word > 1 ? " (overlay)" : "", (long long)values[vi], first[RUNS / 2], (unsigned long long)n1,
               m1 / 1024.0, second[RUNS / 2], (unsigned long long)n2, m2 / 1024.0);
    }
    /* delta: baseline, then "changed", then "unchanged" */
    double base[RUNS], d1[RUNS], d2[RUNS];
    uint64_t n1 = 0, n2 = 0;
    size_t m1 = 0;
    rg_op ne, eq;
    rg_op_parse("not-equal", &ne);
    rg_op_parse("equal", &eq);
    for (int r = 0; r < RUNS; r++) {
        fill(ram, size, 1 + (unsigned)r);
        rg_searchset *set;
        rg_searchset_create(&set);
        double t0 = bench_seconds(CLOCK_THREAD_CPUTIME_ID);
        rg_search_delta(set, "d", gd, eq, 0);
        base[r] = ms_since(t0);
        for (size_t i = 0; i < size; i += 97)
            ram[i] += 1;
        t0 = bench_seconds(CLOCK_THREAD_CPUTIME_ID);
        rg_search_delta(set, "d", gd, ne, 0);
        d1[r] = ms_since(t0);
        rg_search_result_count(set, "d", &n1);
        rg_search_memory(set, "d", &m1);
        t0 = bench_seconds(CLOCK_THREAD_CPUTIME_ID);
        rg_search_delta(set, "d", gd, eq, 0);
        d2[r] = ms_since(t0);
        rg_search_result_count(set, "d", &n2);
        rg_searchset_free(set);
    }
    qsort(base, RUNS, sizeof base[0], bench_cmp_double);
    qsort(d1, RUNS, sizeof d1[0], bench_cmp_double);
    qsort(d2, RUNS, sizeof d2[0], bench_cmp_double);
    printf("%4zu KiB%s delta baseline %5.1f ms | changed %6.1f ms  %8llu candidates %8.1f KiB | unchanged %5.1f ms "
           "%8llu\n",
           kib, word > 1 ? " (overlay)" : "", base[RUNS / 2], d1[RUNS / 2], (unsigned long long)n1, m1 / 1024.0,
           d2[RUNS / 2], (unsigned long long)n2);
    rg_gamedata_free(gd);
    free(ram);
}

int main(int argc, char **argv)
{
    printf("medians of %d runs, 44 default types, CPU time of the searching thread\n", RUNS);
    if (argc > 1) {
        run((size_t)atol(argv[1]), 1);
        return 0;
    }
    run(512, 1);
    run(512, 2);
    run(128, 1);
    return 0;
}
