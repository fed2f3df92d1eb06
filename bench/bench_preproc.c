/* The cost of the pool's preprocessing (docs/performance.md, "Preprocessing").
 *
 * 1. Kernels on real Pong frames (210 x 160 RGB, pairs of consecutive frames): per step, the max-pool of the last
 *    two frames plus grayscale + resize to 84 x 84, as it was before issue 17 (per-channel RGB max, then the luma of
 *    whole-block RGB sums: copied below as the baseline) and as it is now (max-pool by gray, gray per pixel, then
 *    OpenCV's INTER_AREA arithmetic), scalar and AVX2.
 * 2. The whole vector step: Pong, 84 x 84 gray, 4-frame stack, frame skip 4 with max-pool, 8 envs (or the third
 *    argument) on min(envs, 2) threads, process CPU time per env step, in alternating rounds: as it is (the envs
 *    write gray planes straight from the core's frame, AVX2), with RG_POOL_RGB_FRAMES=1 (the way before: RGB24
 *    frames max-pooled by gray, then converted) and with RG_PREPROC_SCALAR=1 (the pool's kernels scalar).
 *
 * Needs ale-py's pong.bin and stable-retro's Pong-Atari2600-v0 integration in .venv (copied into a temporary data
 * root). Usage: bench_preproc [rounds] [steps per round] [envs]. */
#define _POSIX_C_SOURCE 200809L
#include "bench_util.h"

#include "env/env_maxpool.h"
#include "pool/pool_preproc.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GAME "Pong-Atari2600-v0"
#define H 210
#define W 160
#define OUT 84

/* ---- the pre-issue-17 kernels (our own earlier code), the baseline ---- */

static void old_max(uint8_t *dst, const uint8_t *other, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = dst[i] > other[i] ? dst[i] : other[i];
}

static void old_convert(const uint8_t *src, uint8_t *dst)
{
    for (unsigned y = 0; y < OUT; y++) {
        unsigned y0 = y * H / OUT, y1 = (y + 1) * H / OUT;
        for (unsigned x = 0; x < OUT; x++) {
            unsigned x0 = x * W / OUT, x1 = (x + 1) * W / OUT;
            uint32_t sum[3] = {0, 0, 0};
            for (unsigned yy = y0; yy < y1; yy++) {
                const uint8_t *s = src + ((size_t)yy * W + x0) * 3;
                for (unsigned xx = x0; xx < x1; xx++, s += 3)
                    for (unsigned k = 0; k < 3; k++)
                        sum[k] += s[k];
            }
            uint32_t n = (y1 - y0) * (x1 - x0);
            uint32_t luma = (299 * sum[0] + 587 * sum[1] + 114 * sum[2] + 500 * n) / (1000 * n);
            dst[y * OUT + x] = (uint8_t)(luma > 255 ? 255 : luma);
        }
    }
}

/* ---- data ---- */

static int first_glob(const char *pattern, char *out, size_t cap)
{
    glob_t g;
    int ok = glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc;
    if (ok)
        snprintf(out, cap, "%s", g.gl_pathv[0]);
    globfree(&g);
    return ok;
}

static int make_root(char *root, size_t cap)
{
    char data[1024], rom[1024], cmd[4096];
    if (!first_glob(RG_SOURCE_DIR "/.venv/lib/python3*/site-packages/stable_retro/data/stable/" GAME, data,
                    sizeof data) ||
        !first_glob(RG_SOURCE_DIR "/.venv/lib/python3*/site-packages/ale_py/roms/pong.bin", rom, sizeof rom))
        return 0;
    snprintf(root, cap, "/tmp/rg-bench-preproc-XXXXXX");
    if (!mkdtemp(root))
        return 0;
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/stable' && cp -r '%s' '%s/stable/' && cp '%s' '%s/stable/%s/rom.a26'", root,
             data, root, rom, root, GAME);
    return system(cmd) == 0;
}

static rg_env_options env_options(rg_integration_paths *dp, unsigned frameskip, int max_pool)
{
    rg_env_options eo = RG_ENV_OPTIONS_INIT;
    eo.game = GAME;
    eo.paths = dp;
    eo.core = "atari2600";
    eo.log = bench_quiet;
    eo.actions = RG_ACTIONS_DISCRETE;
    eo.frameskip = frameskip;
    eo.max_pool = max_pool;
    return eo;
}

/* ---- 1: kernels ---- */

#define PAIRS 64

static void kernels(rg_integration_paths *dp, int simd_ok)
{
    rg_env_options eo = env_options(dp, 1, 0);
    rg_env *env;
    if (rg_env_create(&env, &eo) != RG_OK) {
        printf("kernels: %s\n", rg_error_last());
        return;
    }
    size_t n = (size_t)H * W * 3;
    uint8_t *frames = malloc(2 * PAIRS * n), *work = malloc(n), *out = malloc(OUT * OUT);
    rg_env_reset(env, 1, 1, frames, n);
    rg_step_result r;
    for (unsigned i = 0; i < 2 * PAIRS * 4; i++) { /* every 4th frame kept: pairs 4 frames apart */
        int64_t a = (int64_t)(i / 16 % 6);
        rg_env_step(env, &a, 1, frames + (size_t)(i / 4) * n, n, &r);
    }
    rg_env_free(env);
    rg__area_plan pl;
    rg__area_plan_init(&pl, H, W, OUT, OUT, 1);
    void *scratch = aligned_alloc(64, (pl.scratch + 63) & ~(size_t)63);
    /* the frames as the core gives them (XRGB8888), for the gray planes */
    uint32_t *xrgb = malloc(2 * PAIRS * (size_t)H * W * 4);
    for (size_t i = 0; i < 2 * PAIRS * (size_t)H * W; i++)
        xrgb[i] = (uint32_t)frames[3 * i] << 16 | (uint32_t)frames[3 * i + 1] << 8 | frames[3 * i + 2];
    uint8_t *g2 = malloc((size_t)H * W);
    rg__area_plan gpl;
    rg__area_plan_init(&gpl, H, W, OUT, OUT, 1);
    gpl.src_gray = 1;
    const char *names[4] = {"before (RGB max, block luma)", "RGB24 frames, scalar", "RGB24 frames, AVX2",
                            "gray planes, AVX2 (as it is)"};
    for (int kind = 0; kind < 4; kind++) {
        if (kind >= 2 && !simd_ok)
            break;
        double best = 1e9;
        for (int round = 0; round < 5; round++) {
            double t0 = bench_seconds(CLOCK_THREAD_CPUTIME_ID);
            for (int rep = 0; rep < 20; rep++)
                for (unsigned p = 0; p < PAIRS; p++) {
                    if (kind == 3) { /* the env writes both frames' grays, max-pools them; the pool resizes */
                        rg__gray_xrgb(xrgb + (size_t)(2 * p) * H * W, (size_t)H * W, g2, 1);
                        rg__gray_xrgb(xrgb + (size_t)(2 * p + 1) * H * W, (size_t)H * W, work, 1);
                        rg__max_rgb(work, g2, (size_t)H * W, 1);
                        rg__area_frame(&gpl, work, out, scratch, 1);
                        continue;
                    }
                    memcpy(work, frames + (size_t)(2 * p + 1) * n, n); /* the env writes the last frame */
                    const uint8_t *other = frames + (size_t)(2 * p) * n;
                    if (kind == 0) {
                        old_max(work, other, n);
                        old_convert(work, out);
                    } else {
                        rg__max_luma(work, other, n, kind == 2);
                        rg__area_frame(&pl, work, out, scratch, kind == 2);
                    }
                }
            double us = (bench_seconds(CLOCK_THREAD_CPUTIME_ID) - t0) * 1e6 / (20.0 * PAIRS);
            best = us < best ? us : best;
        }
        printf("  %-30s %6.2f us per step (max-pool + gray + resize%s)\n", names[kind], best,
               kind == 3 ? "; both frames' grays from XRGB8888" : "; a 100 KB frame copy included");
    }
    free(xrgb), free(g2);
    rg__area_plan_free(&gpl);
    free(scratch);
    rg__area_plan_free(&pl);
    free(frames), free(work), free(out);
}

/* ---- 2: the vector step ---- */

static unsigned n_envs = 8;

/* mode 0: as it is; 1: RG_POOL_RGB_FRAMES=1; 2: RG_PREPROC_SCALAR=1 */
static double pool_round(rg_integration_paths *dp, int mode, unsigned steps)
{
    rg_env_options eo = env_options(dp, 4, 1);
    rg_pool_options po = RG_POOL_OPTIONS_INIT;
    po.envs = &eo;
    po.n_env_options = 1;
    po.num_envs = n_envs;
    po.num_threads = n_envs < 2 ? n_envs : 2;
    po.seed = 1;
    po.grayscale = 1;
    po.resize_width = po.resize_height = OUT;
    po.frame_stack = 4;
    const char *var = mode == 1 ? "RG_POOL_RGB_FRAMES" : "RG_PREPROC_SCALAR";
    if (mode)
        setenv(var, "1", 1); /* read at pool creation */
    rg_pool *p;
    int rc = rg_pool_create(&p, &po);
    unsetenv(var);
    if (rc != RG_OK) {
        printf("pool: %s\n", rg_error_last());
        return -1;
    }
    rg_pool_batch b;
    rg_pool_reset(p, NULL, 0, &b);
    int64_t acts[64];
    for (unsigned s = 0; s < 20; s++) {
        for (unsigned i = 0; i < n_envs; i++)
            acts[i] = (int64_t)((s * 7 + i) % 6);
        rg_pool_step(p, acts, &b);
    }
    double t0 = bench_seconds(CLOCK_PROCESS_CPUTIME_ID);
    for (unsigned s = 0; s < steps; s++) {
        for (unsigned i = 0; i < n_envs; i++)
            acts[i] = (int64_t)((s * 7 + i * 3) / 5 % 6);
        rg_pool_step(p, acts, &b);
    }
    double us = (bench_seconds(CLOCK_PROCESS_CPUTIME_ID) - t0) * 1e6 / ((double)n_envs * steps);
    rg_pool_free(p);
    return us;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    unsigned steps = argc > 2 ? (unsigned)atoi(argv[2]) : 1500;
    n_envs = argc > 3 ? (unsigned)atoi(argv[3]) : 8;
    if (n_envs < 1 || n_envs > 64)
        n_envs = 8;
    char root[256];
    if (!make_root(root, sizeof root)) {
        printf("bench_preproc: needs ale-py's pong.bin and stable-retro's %s in .venv (make venv)\n", GAME);
        return 0;
    }
    rg_integration_paths *dp;
    if (rg_integration_paths_create(&dp, root) != RG_OK) {
        printf("data root: %s\n", rg_error_last());
        return 1;
    }
    int simd_ok = rg__pre_simd();
    printf("Pong 210x160 -> 84x84 gray, per env step (1 core, thread CPU time, best of 5):\n");
    kernels(dp, simd_ok);
    printf("Vector step: Pong, 84x84 gray, stack 4, frame skip 4 + max-pool, %u envs on %u threads, process CPU us"
           " per env step (%d alternating rounds of %u steps):\n",
           n_envs, n_envs < 2 ? n_envs : 2, rounds, steps);
    static const char *modes[3] = {"gray planes (as it is)", "RGB24 frames (RG_POOL_RGB_FRAMES=1)",
                                   "scalar (RG_PREPROC_SCALAR=1)"};
    double v[3][64], ratio[64];
    int nr = rounds > 64 ? 64 : rounds;
    for (int r = 0; r < nr; r++) {
        for (int k = 0; k < 3; k++) {
            int m = (r + k) % 3;
            v[m][r] = pool_round(dp, m, steps);
        }
        ratio[r] = v[1][r] / v[0][r];
    }
    for (int m = 0; m < 3; m++) {
        if (m != 2 && !simd_ok)
            continue;
        qsort(v[m], (size_t)nr, sizeof(double), bench_cmp_double);
        printf("  %-38s median %6.1f us  (min %6.1f, max %6.1f)\n", modes[m], v[m][nr / 2], v[m][0], v[m][nr - 1]);
    }
    qsort(ratio, (size_t)nr, sizeof(double), bench_cmp_double);
    printf("  RGB24 frames / gray planes, per round: median %.3f (min %.3f, max %.3f)\n", ratio[nr / 2], ratio[0],
           ratio[nr - 1]);
    rg_integration_paths_free(dp);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : 1;
}
