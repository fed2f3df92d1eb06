/* The soak's workloads: single environments and pools stepped in bursts with random actions, resets, snapshots and
 * restores, state files, observations and info read back. Any error ends the run (soak_die). */
#ifndef RG_SOAK_WORK_H
#define RG_SOAK_WORK_H

#include "retrogym/retrogym.h"

#include <stddef.h>
#include <stdint.h>

/* Prints what failed (with rg_error_last) and exits 1. */
void soak_die(const char *what, const char *label);
void soak_check(int rc, const char *what, const char *label);

uint64_t soak_rand(uint64_t *state);
/* A valid random action for env in its action mode (buttons pressed with probability 1/4). */
void soak_random_action(const rg_env *env, uint64_t *rng, int64_t *action);

/* Counts of what the workloads did, for the report. */
typedef struct soak_counts {
    uint64_t steps, episodes, resets, clones, restores, state_files, creates, pool_creates, movies;
} soak_counts;

typedef struct soak_single {
    char label[48];
    rg_env *env;
    uint8_t *obs, *scratch;
    size_t obs_size, scratch_cap;
    int64_t *action;
    uint64_t rng, steps;
    uint8_t *snap;
    size_t snap_cap, snap_len;
    unsigned burst;
    int start_none;   /* the start state was switched to power-on by the periodic toggle */
    int toggle_start; /* the periodic toggle is on (only for cores that can be power-cycled without leaking) */
    double seconds;   /* time spent in soak_single_run */
    const char *out_dir;
} soak_single;

/* Creates the env and its buffers and resets it (seeded). */
void soak_single_open(soak_single *s, const char *label, const rg_env_options *o, unsigned burst, uint64_t seed,
                      const char *out_dir);
/* s->burst steps, plus the periodic events due in them. */
void soak_single_run(soak_single *s, soak_counts *c);
void soak_single_close(soak_single *s);

typedef struct soak_pool {
    char label[48];
    rg_pool *pool;
    rg_autoreset_mode mode;
    int async; /* send/recv with batch_size < num_envs */
    size_t n, act_len, obs_size;
    int64_t *actions;
    int32_t *ids;
    uint8_t *into;  /* rg_pool_step_into's caller buffer */
    uint64_t rng, calls;
    uint8_t *snap;
    size_t snap_cap, snap_len, snap_env;
    unsigned burst;
    double seconds;
} soak_pool;

void soak_pool_open(soak_pool *p, const char *label, const rg_pool_options *o, unsigned burst, soak_counts *c);
void soak_pool_run(soak_pool *p, soak_counts *c);
void soak_pool_close(soak_pool *p);

/* Snapshot of env into a growing buffer; restore from it. */
void soak_snapshot(rg_env *env, uint8_t **buf, size_t *cap, size_t *len, const char *label);

#endif
