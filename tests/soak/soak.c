/* rg_soak: a long run of everything a training job does to the library — several environments of different systems,
 * pools in every autoreset mode (synchronous and send/recv), resets, snapshots and restores, state files, RAM and
 * image observations, random actions from a fixed seed, and whole environments and pools created and freed now and
 * then — watching the process: resident memory, heap, descriptors, mappings, threads and temporary files must stay
 * flat after a warm-up (docs/reliability.md, "Soak").
 *
 * usage: rg_soak [STEPS [SEED [SYSTEMS]]]   (STEPS: environment steps in all, default 1,000,000; SYSTEMS: a
 *        comma-separated list including Atari2600, default all). RG_SOAK_RELOAD_ALL=1 in the environment also
 *        creates and power-cycles envs of the cores that leak per load (the run then shows their leak and fails).
 * exit: 0 flat, 1 a figure grew or an operation failed. */
#define _GNU_SOURCE
#include "soak_data.h"
#include "soak_proc.h"
#include "soak_work.h"
#include "test_support.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CHURN_EVERY 2000u  /* steps between two whole environments created and freed */
#define POOL_CHURN_EVERY 8 /* env churns between two whole pools created and freed */
#define MAX_SINGLES 12

typedef struct soak_run {
    char base[PATH_MAX], tmp[PATH_MAX], data[PATH_MAX], out[PATH_MAX];
    rg_integration_paths *soak_paths, *repo_paths;
    int have_nes;
    soak_single singles[MAX_SINGLES];
    size_t n_singles;
    soak_pool pools[3];
    size_t n_pools;
    soak_counts counts;
    uint64_t churns, seed;
    double churn_seconds;
} soak_run;

static int list_has(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const soak_system *find_system(const char *name)
{
    for (unsigned i = 0; i < soak_system_count; i++)
        if (strcmp(soak_systems[i].system, name) == 0)
            return soak_systems[i].available ? &soak_systems[i] : NULL;
    return NULL;
}

static rg_env_options env_opts(soak_run *r, const soak_system *s)
{
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = s->game;
    o.core = s->core;
    o.paths = r->soak_paths;
    o.log = test_quiet_log;
    return o;
}

static rg_env_options starcatcher_opts(soak_run *r)
{
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = "StarCatcher-Nes";
    o.paths = r->repo_paths;
    o.log = test_quiet_log;
    return o;
}

/* The environments that live through the whole run: every system, each with other options. */
static void open_singles(soak_run *r)
{
    struct {
        const char *system, *label, *state, *scenario;
        rg_obs_mode obs;
        rg_action_mode actions;
        unsigned frameskip, noop, burst;
        double sticky;
        int max_pool;
        uint64_t max_steps;
    } plan[] = {
        {"Atari2600", "a26-image", RG_STATE_DEFAULT, NULL, RG_OBS_IMAGE, RG_ACTIONS_FILTERED, 4, 0, 48, 0.25, 0, 500},
        {"Atari2600", "a26-ram-poweron", RG_STATE_NONE, "lua", RG_OBS_RAM, RG_ACTIONS_DISCRETE, 1, 0, 48, 0, 0, 0},
        {"Nes", "nes-ram", RG_STATE_DEFAULT, "long", RG_OBS_RAM, RG_ACTIONS_MULTI_DISCRETE, 2, 0, 16, 0, 0, 700},
        {"GameBoy", "gb-image-poweron", RG_STATE_NONE, NULL, RG_OBS_IMAGE, RG_ACTIONS_ALL, 1, 0, 32, 0, 0, 0},
        {"GbColor", "gbc-ram-lua", RG_STATE_DEFAULT, "lua", RG_OBS_RAM, RG_ACTIONS_FILTERED, 2, 5, 24, 0.1, 0, 0},
        {"Snes", "snes-image", RG_STATE_DEFAULT, NULL, RG_OBS_IMAGE, RG_ACTIONS_DISCRETE, 1, 0, 8, 0, 1, 0},
        {"GbAdvance", "gba-ram", RG_STATE_DEFAULT, NULL, RG_OBS_RAM, RG_ACTIONS_MULTI_DISCRETE, 1, 0, 8, 0, 0, 0},
        {"PCEngine", "pce-image", RG_STATE_DEFAULT, "long", RG_OBS_IMAGE, RG_ACTIONS_FILTERED, 2, 3, 16, 0, 0, 400},
    };
    for (size_t i = 0; i < sizeof plan / sizeof plan[0]; i++) {
        const soak_system *s = find_system(plan[i].system);
        if (!s)
            continue;
        rg_env_options o = env_opts(r, s);
        /* power-on resets reload the core: not for cores that leak per load */
        o.state = s->reloadable ? plan[i].state : RG_STATE_DEFAULT;
        o.scenario = plan[i].scenario;
        o.obs = plan[i].obs;
        o.actions = plan[i].actions;
        o.frameskip = plan[i].frameskip;
        o.noop_max = plan[i].noop;
        o.sticky_prob = plan[i].sticky;
        o.max_pool = plan[i].max_pool;
        o.max_episode_steps = plan[i].max_steps;
        soak_single_open(&r->singles[r->n_singles], plan[i].label, &o, plan[i].burst, r->seed + i, r->out);
        r->singles[r->n_singles++].toggle_start = s->reloadable;
    }
    if (r->have_nes) {
        rg_env_options o = starcatcher_opts(r);
        o.actions = RG_ACTIONS_DISCRETE;
        o.frameskip = 2;
        o.max_pool = 1;
        o.noop_max = 30;
        o.max_episode_steps = 1000;
        soak_single_open(&r->singles[r->n_singles++], "starcatcher", &o, 16, r->seed + 100, r->out);
    }
}

/* Pools in the three autoreset modes. */
static void open_pools(soak_run *r)
{
    /* 1: our game (or the Atari test ROM), 4 envs, 2 threads, same-step autoreset, 84x84 gray stack 4, clipping */
    rg_env_options e1 = r->have_nes ? starcatcher_opts(r) : env_opts(r, find_system("Atari2600"));
    e1.actions = RG_ACTIONS_DISCRETE;
    e1.frameskip = 2;
    e1.max_episode_steps = 300;
    rg_pool_options p1 = RG_POOL_OPTIONS_INIT;
    p1.envs = &e1;
    p1.n_env_options = 1;
    p1.num_envs = 4;
    p1.num_threads = 2;
    p1.autoreset = RG_AUTORESET_SAME_STEP;
    p1.seed = r->seed + 1000;
    p1.grayscale = 1;
    p1.resize_width = p1.resize_height = 84;
    p1.frame_stack = 4;
    p1.reward_clip = 1.0f;
    soak_pool_open(&r->pools[r->n_pools++], "pool-same-step", &p1, 4, &r->counts);

    /* 2: Atari RAM, 4 envs, 2 threads, next-step autoreset, send/recv in batches of 2 */
    rg_env_options e2 = env_opts(r, find_system("Atari2600"));
    e2.obs = RG_OBS_RAM;
    e2.frameskip = 2;
    rg_pool_options p2 = RG_POOL_OPTIONS_INIT;
    p2.envs = &e2;
    p2.n_env_options = 1;
    p2.num_envs = 4;
    p2.num_threads = 2;
    p2.batch_size = 2;
    p2.autoreset = RG_AUTORESET_NEXT_STEP;
    p2.seed = r->seed + 2000;
    soak_pool_open(&r->pools[r->n_pools++], "pool-async", &p2, 12, &r->counts);

    /* 3: Game Boy and Game Boy Color mixed (same screen and buttons), 1 thread, the caller resets ended envs */
    const soak_system *gb = find_system("GameBoy"), *gbc = find_system("GbColor");
    if (!gb || !gbc)
        return;
    rg_env_options e3[4];
    for (int i = 0; i < 4; i++) {
        e3[i] = env_opts(r, i % 2 ? gbc : gb);
        e3[i].actions = RG_ACTIONS_DISCRETE;
        e3[i].frameskip = 2;
    }
    rg_pool_options p3 = RG_POOL_OPTIONS_INIT;
    p3.envs = e3;
    p3.n_env_options = 4;
    p3.num_envs = 4;
    p3.num_threads = 1;
    p3.autoreset = RG_AUTORESET_DISABLED;
    p3.seed = r->seed + 3000;
    soak_pool_open(&r->pools[r->n_pools++], "pool-disabled", &p3, 4, &r->counts);
}

/* A whole environment created, used and freed (options vary with k); every 4th time a second one takes its
 * snapshot; every 3rd time its episode is recorded as a movie. */
static void churn_env(soak_run *r, uint64_t k)
{
    const soak_system *avail[16];
    unsigned n = 0;
    for (unsigned i = 0; i < soak_system_count; i++)
        if (soak_systems[i].available && soak_systems[i].reloadable)
            avail[n++] = &soak_systems[i];
    rg_env_options o = env_opts(r, avail[k % n]);
    o.obs = k % 2 ? RG_OBS_RAM : RG_OBS_IMAGE;
    o.actions = (rg_action_mode)(k / 2 % 4);
    const char *scenarios[] = {NULL, "long", "lua"};
    o.scenario = scenarios[k / 3 % 3];
    o.state = k % 5 == 0 ? RG_STATE_NONE : RG_STATE_DEFAULT;
    o.frameskip = 1 + (unsigned)(k % 3);
    soak_single a, b;
    soak_single_open(&a, "churn", &o, 60, r->seed + k, r->out);
    if (k % 3 == 0) {
        char path[PATH_MAX + 16];
        snprintf(path, sizeof path, "%s/churn.bk2", r->out);
        soak_check(rg_env_record_movie(a.env, path), "record movie", "churn");
        r->counts.movies++;
    }
    soak_single_run(&a, &r->counts);
    if (k % 4 == 0) {
        soak_snapshot(a.env, &a.snap, &a.snap_cap, &a.snap_len, "churn");
        soak_single_open(&b, "churn-2", &o, 10, r->seed + k + 1, r->out);
        soak_check(rg_env_restore(b.env, a.snap, a.snap_len), "restore into a new env", "churn");
        r->counts.restores++;
        soak_single_run(&b, &r->counts);
        soak_single_close(&b);
        r->counts.creates++;
    }
    soak_single_close(&a); /* writes the movie being recorded */
    r->counts.creates++;
}

/* A whole pool created, stepped and freed (its threads come and go). */
static void churn_pool(soak_run *r, uint64_t k)
{
    const soak_system *gb = find_system("GameBoy");
    rg_env_options e = env_opts(r, k % 2 && gb && gb->reloadable ? gb : find_system("Atari2600"));
    e.obs = k % 4 < 2 ? RG_OBS_IMAGE : RG_OBS_RAM;
    rg_pool_options o = RG_POOL_OPTIONS_INIT;
    o.envs = &e;
    o.n_env_options = 1;
    o.num_envs = 3;
    o.num_threads = 2;
    o.autoreset = (rg_autoreset_mode)(k % 3);
    o.seed = r->seed + k;
    soak_pool p;
    soak_pool_open(&p, "churn-pool", &o, 20, &r->counts);
    soak_pool_run(&p, &r->counts);
    soak_pool_close(&p);
}

static void print_row(const char *point, uint64_t steps, double secs, double cpu, double rate, const soak_figures *f,
                      const soak_figures *base, int out)
{
    fprintf(soak_report, "%-7s %8llu %7.1f %7.1f %7.0f %8ld %+7ld %8ld %+7ld %4d %5d %5d %7d %4d %4d\n", point,
            (unsigned long long)steps, secs, cpu, rate, f->rss_kib, f->rss_kib - base->rss_kib, f->heap_kib,
            f->heap_kib - base->heap_kib, f->fds, f->maps, f->core_maps, f->threads, f->tmp, out);
}

static int compare(const char *what, const char *point, long got, long want, long tolerance)
{
    if (got >= want - tolerance && got <= want + tolerance)
        return 0;
    fprintf(soak_report, "FAIL: %s at %s is %ld, after warm-up %ld (tolerance %ld)\n", what, point, got, want,
            tolerance);
    return 1;
}

#ifndef RG_SANITIZED
static int grew(const char *what, long got, long want, long allowed)
{
    if (got <= want + allowed)
        return 0;
    fprintf(soak_report, "FAIL: %s grew from %ld to %ld after warm-up (allowed: %ld)\n", what, want, got, allowed);
    return 1;
}
#endif

/* The private folders: TMPDIR (the host's core copies) and our own outputs (state files, movies). */
static void make_folders(soak_run *r)
{
    const char *root = getenv("TMPDIR");
    char tmpl[PATH_MAX];
    snprintf(tmpl, sizeof tmpl, "%s/rg-soak-XXXXXX", root && *root ? root : "/tmp");
    if (!mkdtemp(tmpl) || !realpath(tmpl, r->base)) {
        perror("soak: mkdtemp");
        exit(1);
    }
    snprintf(r->tmp, sizeof r->tmp, "%.4000s/tmp", r->base);
    snprintf(r->data, sizeof r->data, "%.4000s/data", r->base);
    snprintf(r->out, sizeof r->out, "%.4000s/out", r->base);
    if (mkdir(r->tmp, 0700) || mkdir(r->data, 0700) || mkdir(r->out, 0700) || setenv("TMPDIR", r->tmp, 1)) {
        perror("soak: folders");
        exit(1);
    }
    /* the envs' state-file events rewrite this one file: the output folder's count stays the same */
    char state[PATH_MAX + 16];
    snprintf(state, sizeof state, "%s/soak.state", r->out);
    FILE *f = fopen(state, "wb");
    if (!f || fclose(f) != 0) {
        perror("soak: output folder");
        exit(1);
    }
}

int main(int argc, char **argv)
{
    static soak_run run;
    soak_run *r = &run;
    uint64_t total = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
    r->seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    if (total < 1000 || (argc > 3 && !strstr(argv[3], "Atari2600"))) {
        fprintf(stderr, "usage: rg_soak [STEPS (>= 1000, default 1000000) [SEED [SYSTEMS]]]\n"
                        "  SYSTEMS: a comma-separated list that includes Atari2600 (default: every system)\n");
        return 2;
    }
    if (argc > 3)
        for (unsigned i = 0; i < soak_system_count; i++)
            if (!list_has(argv[3], soak_systems[i].system))
                soak_systems[i].core = NULL;
    soak_quiet_stdout();
    make_folders(r);
    char repo[PATH_MAX];
    soak_check(rg_integration_paths_create(&r->soak_paths, r->data), "data root", r->data);
    soak_check(rg_integration_paths_create(&r->repo_paths, test_source_path("data", repo, sizeof repo)), "data root", repo);
    soak_check(soak_data_write(r->data, r->soak_paths), "integrations", r->data);
    fprintf(soak_report, "heap one load of each core leaves allocated (a third-party leak when large):\n");
    soak_calibrate();
    r->have_nes = find_system("Nes") != NULL;
    if (!find_system("Atari2600"))
        soak_die("the built-in Atari 2600 core is missing", "atari2600");

    /* Warm-up: a tenth of the run (at least 20,000 steps, or 40% of a short run) so that every kind of churn,
     * event and allocation size has happened before the baseline is taken. */
    uint64_t warmup = total >= 50000 ? (total / 10 > 20000 ? total / 10 : 20000) : total * 2 / 5;
    uint64_t middle = (warmup + total) / 2;
    double t0 = now_s();
    open_singles(r);
    open_pools(r);
    fprintf(soak_report, "soak: %llu steps, seed %llu, %zu single envs, %zu pools, warm-up %llu steps, TMPDIR %s\n",
            (unsigned long long)total, (unsigned long long)r->seed, r->n_singles, r->n_pools,
            (unsigned long long)warmup, r->tmp);
    for (size_t i = 0; i < r->n_singles; i++)
        fprintf(soak_report, "  %-16s %s on %s\n", r->singles[i].label, rg_env_game(r->singles[i].env),
                rg_emu_core_name(rg_env_emu(r->singles[i].env)));
#ifdef RG_SANITIZED
    fprintf(soak_report, "sanitizer build: cores stay mapped after unloading (RTLD_NODELETE) and the allocator is"
                         " ASan's (quarantine, no mallinfo2), so memory and mappings are printed but not checked\n");
#endif
    fprintf(soak_report, "%-7s %8s %7s %7s %7s %8s %7s %8s %7s %4s %5s %5s %7s %4s %4s\n", "point", "steps", "wall s",
            "cpu s", "steps/s", "RSS KiB", "dRSS", "heap KiB", "dheap", "fds", "maps", "cores", "threads", "tmp",
            "out");

    soak_figures base = {0}, f;
    int phase = 0, failures = 0, base_out = 0;
    double t_last = t0;
    uint64_t steps_last = 0, next_churn = CHURN_EVERY;
    while (phase < 3) {
        for (size_t i = 0; i < r->n_singles; i++) {
            double t = now_s();
            soak_single_run(&r->singles[i], &r->counts);
            r->singles[i].seconds += now_s() - t;
        }
        for (size_t i = 0; i < r->n_pools; i++) {
            double t = now_s();
            soak_pool_run(&r->pools[i], &r->counts);
            r->pools[i].seconds += now_s() - t;
        }
        if (r->counts.steps >= next_churn) {
            double t = now_s();
            churn_env(r, r->churns);
            if (r->churns % POOL_CHURN_EVERY == 1)
                churn_pool(r, r->churns / POOL_CHURN_EVERY);
            r->churns++;
            next_churn += CHURN_EVERY;
            r->churn_seconds += now_s() - t;
        }
        uint64_t at = phase == 0 ? warmup : phase == 1 ? middle : total;
        if (r->counts.steps < at)
            continue;
        soak_measure(&f, r->tmp);
        int out = soak_count_tree(r->out);
        double t = now_s();
        const char *point = phase == 0 ? "start" : phase == 1 ? "middle" : "end";
        if (phase == 0) {
            base = f;
            base_out = out;
        }
        print_row(point, r->counts.steps, t - t0, cpu_s(), (double)(r->counts.steps - steps_last) / (t - t_last), &f,
                  &base, out);
        t_last = t;
        steps_last = r->counts.steps;
        if (phase > 0) {
            failures += compare("open file descriptors", point, f.fds, base.fds, 0);
            failures += compare("threads", point, f.threads, base.threads, 0);
            failures += compare("temporary entries", point, f.tmp, base.tmp, 0);
            failures += compare("output files", point, out, base_out, 0);
#ifndef RG_SANITIZED
            failures += compare("core mappings", point, f.core_maps, base.core_maps, 0);
            failures += compare("mappings", point, f.maps, base.maps, 16);
#endif
        }
        phase++;
    }
    long allowed = base.rss_kib / 50 > 8192 ? base.rss_kib / 50 : 8192;
    long heap_allowed = base.heap_kib / 100 > 2048 ? base.heap_kib / 100 : 2048;
#ifndef RG_SANITIZED
    failures += grew("resident memory (KiB)", f.rss_kib, base.rss_kib, allowed);
    failures += grew("heap in use (KiB)", f.heap_kib, base.heap_kib, heap_allowed);
#endif
    const soak_counts *c = &r->counts;
    fprintf(soak_report,
            "did: %llu steps, %llu episodes ended, %llu resets, %llu snapshots, %llu restores, %llu state files,"
            " %llu envs and %llu pools created and freed, %llu movies recorded\n",
            (unsigned long long)c->steps, (unsigned long long)c->episodes, (unsigned long long)c->resets,
            (unsigned long long)c->clones, (unsigned long long)c->restores, (unsigned long long)c->state_files,
            (unsigned long long)c->creates, (unsigned long long)c->pool_creates - r->n_pools,
            (unsigned long long)c->movies);
    fprintf(soak_report,
            "thresholds: after warm-up, resident memory may grow %ld KiB (max(8 MiB, 2%% of %ld KiB)), heap in use"
            " %ld KiB (max(2 MiB, 1%% of %ld KiB)); descriptors, threads, core mappings, temporary entries and output"
            " files must equal the warm-up figures; mappings within 16\n",
            allowed, base.rss_kib, heap_allowed, base.heap_kib);

    fprintf(soak_report, "time per workload:");
    for (size_t i = 0; i < r->n_singles; i++)
        fprintf(soak_report, " %s %.1f s,", r->singles[i].label, r->singles[i].seconds);
    for (size_t i = 0; i < r->n_pools; i++)
        fprintf(soak_report, " %s %.1f s,", r->pools[i].label, r->pools[i].seconds);
    fprintf(soak_report, " churn %.1f s\n", r->churn_seconds);
    for (size_t i = 0; i < r->n_pools; i++)
        soak_pool_close(&r->pools[i]);
    for (size_t i = 0; i < r->n_singles; i++)
        soak_single_close(&r->singles[i]);
    rg_integration_paths_free(r->soak_paths);
    rg_integration_paths_free(r->repo_paths);
    int left = soak_count_tree(r->tmp);
    if (left != 0) {
        fprintf(soak_report, "FAIL: %d entries left in TMPDIR after every env was freed\n", left);
        failures++;
    }
    soak_remove_tree(r->base);
    fprintf(soak_report, "%s\n", failures ? "soak: FAIL" : "soak: PASS (flat)");
    return failures ? 1 : 0;
}
