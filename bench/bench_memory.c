/* Host memory per environment, split into what the core costs and what retrogym adds.
 *
 * For K instances of each kind it reports the growth of resident memory per instance, split by /proc/self/smaps_rollup
 * into anonymous memory (heap, the cores' own allocations) and file-backed pages (each instance's private copy of
 * the core's shared object):
 *   emu   rg_emu_open: the core loaded and the ROM running (the core's own cost)
 *   env   rg_env_create + reset: emu + game variables, scenario, observation buffers
 *   pool  rg_pool_create with K envs (+ preprocessing buffers and batch rows)
 * Usage: bench_memory [K] [GAME] [KIND] (default 16, StarCatcher-Nes, all); the core is the game's system's default.
 * Each kind should be measured in its own process (freed memory of one kind is reused by the next): run it once per
 * KIND, as `make bench-memory` does. */
#include <retrogym/retrogym.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct mem {
    long anon_kib, file_kib;
} mem;

static mem measure(void)
{
    mem m = {0, 0};
    FILE *f = fopen("/proc/self/smaps_rollup", "r");
    char line[256];
    long v;
    while (f && fgets(line, sizeof line, f)) {
        if (sscanf(line, "Anonymous: %ld kB", &v) == 1)
            m.anon_kib = v;
        else if (sscanf(line, "Rss: %ld kB", &v) == 1)
            m.file_kib = v; /* Rss for now: the file part is Rss - Anonymous */
    }
    if (f)
        fclose(f);
    m.file_kib -= m.anon_kib;
    return m;
}

static void report(const char *what, mem a, mem b, int k)
{
    printf("%-6s %8.0f %8.0f %8.0f\n", what, (double)(b.anon_kib - a.anon_kib) / k,
           (double)(b.file_kib - a.file_kib) / k, (double)(b.anon_kib + b.file_kib - a.anon_kib - a.file_kib) / k);
}

static int fail(void)
{
    fprintf(stderr, "%s\n", rg_error_last());
    return 1;
}

static int emus(int k, const char *rom)
{
    rg_emu **e = calloc((size_t)k, sizeof *e);
    mem a = measure();
    for (int i = 0; i < k; i++) {
        if (rg_emu_open(&e[i], rom, NULL) != RG_OK)
            return fail();
        for (int f = 0; f < 60; f++)
            rg_emu_run(e[i]);
    }
    report("emu", a, measure(), k);
    for (int i = 0; i < k; i++)
        rg_emu_free(e[i]);
    free(e);
    return 0;
}

static int envs(int k, const rg_env_options *eo, uint8_t *obs, size_t size)
{
    rg_env **v = calloc((size_t)k, sizeof *v);
    mem a = measure();
    for (int i = 0; i < k; i++) {
        if (rg_env_create(&v[i], eo) != RG_OK || rg_env_reset(v[i], 1, (uint64_t)i, obs, size) != RG_OK)
            return fail();
        int64_t act[16] = {0};
        rg_step_result r;
        for (int s = 0; s < 15; s++)
            rg_env_step(v[i], act, rg_env_action_length(v[i]), obs, size, &r);
    }
    report("env", a, measure(), k);
    for (int i = 0; i < k; i++)
        rg_env_free(v[i]);
    free(v);
    return 0;
}

static int pool(int k, const rg_env_options *eo)
{
    rg_pool_options po = RG_POOL_OPTIONS_INIT;
    po.envs = eo;
    po.n_env_options = 1;
    po.num_envs = (size_t)k;
    po.grayscale = 1;
    po.resize_width = po.resize_height = 84;
    po.frame_stack = 4;
    mem a = measure();
    rg_pool *p;
    rg_pool_batch b;
    if (rg_pool_create(&p, &po) != RG_OK || rg_pool_reset(p, NULL, 0, &b) != RG_OK)
        return fail();
    int64_t *acts = calloc((size_t)k * rg_pool_action_length(p) + 1, sizeof *acts);
    for (int s = 0; s < 15; s++)
        rg_pool_step(p, acts, &b);
    report("pool", a, measure(), k);
    rg_pool_free(p);
    free(acts);
    return 0;
}

int main(int argc, char **argv)
{
    int k = argc > 1 ? atoi(argv[1]) : 16;
    const char *game = argc > 2 ? argv[2] : "StarCatcher-Nes";
    const char *kind = argc > 3 ? argv[3] : "all";
    if (k < 1 || k > 256)
        k = 16;
    rg_integration_paths *paths;
    char *rom;
    if (rg_integration_paths_create(&paths, RG_SOURCE_DIR "/data") != RG_OK ||
        rg_integration_rom_path(paths, game, RG_INTEGRATIONS_ALL, &rom) != RG_OK)
        return fail();
    rg_env_options eo = RG_ENV_OPTIONS_INIT;
    eo.game = game;
    eo.paths = paths;
    printf("%d instances of %s; KiB per instance\n", k, game);
    printf("%-6s %8s %8s %8s\n", "kind", "anon", "file", "total");
    /* warm-up: one of each first, so one-time costs (libraries, the system table) are not counted */
    rg_emu *e0;
    rg_env *v0;
    if (rg_emu_open(&e0, rom, NULL) != RG_OK || rg_env_create(&v0, &eo) != RG_OK)
        return fail();
    size_t size = rg_env_obs_size(v0);
    uint8_t *obs = malloc(size);
    int all = strcmp(kind, "all") == 0, rc = 0;
    if (all || strcmp(kind, "emu") == 0)
        rc |= emus(k, rom);
    if (all || strcmp(kind, "env") == 0)
        rc |= envs(k, &eo, obs, size);
    if (all || strcmp(kind, "pool") == 0)
        rc |= pool(k, &eo);
    free(obs);
    rg_env_free(v0);
    rg_emu_free(e0);
    rg_integration_paths_free(paths);
    free(rom);
    return rc;
}
