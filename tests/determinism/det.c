/* The determinism suite's shared parts: integrations around the test ROMs, seeded streams, child processes. */
#define _GNU_SOURCE
#include "det.h"

#include "base/base.h"
#include "env/env_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define START_FRAMES 150

static det_game games[16];
static size_t n_games;
static rg_integration_paths *paths;
static char root[1024];
static int owner; /* this process made the root */

int det_wheel_core(const char *name, char *out, size_t cap) { return test_wheel_core(name, out, cap); }

/* The test ROM's own core when installed, else the first core of the system's list that is installed (or named by
 * $RETROGYM_CORE_PATH), else stable-retro's build of one. */
static int pick_core(det_game *g)
{
    const rg_system_info *sys;
    if (rg_system_find(&sys, g->system) != RG_OK)
        return 0;
    char own[sizeof g->rom.core];
    memcpy(own, g->rom.core, sizeof own); /* a copy: snprintf from inside the struct it writes is refused */
    if (own[0] && test_core_installed(own)) {
        snprintf(g->core, sizeof g->core, "%s", own);
        snprintf(g->core_name, sizeof g->core_name, "%s", own);
        return 1;
    }
    for (size_t i = 0; i < sys->n_cores; i++)
        if (test_core_installed(sys->cores[i])) {
            snprintf(g->core, sizeof g->core, "%s", sys->cores[i]);
            snprintf(g->core_name, sizeof g->core_name, "%s", sys->cores[i]);
            return 1;
        }
    for (size_t i = 0; i < sys->n_cores; i++)
        if (det_wheel_core(sys->cores[i], g->core, sizeof g->core)) {
            snprintf(g->core_name, sizeof g->core_name, "%s", sys->cores[i]);
            g->from_wheel = 1;
            return 1;
        }
    return 0;
}

static void write_text(const char *dir, const char *name, const char *text)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (rg__write_file_atomic(path, text, strlen(text)) != RG_OK)
        fail_msg("%s: %s", path, rg_error_last());
}

/* The game folder: ROM, hash, variables, scenario and a Start state made by the core itself. */
static void make_game(det_game *g)
{
    const rg_system_info *sys;
    assert_int_equal(rg_system_find(&sys, g->system), RG_OK);
    char dir[1200], path[1400], rom_name[32], text[1024];
    snprintf(dir, sizeof dir, "%s/%s", root, g->game);
    if (mkdir(dir, 0700) != 0)
        fail_msg("mkdir %s", dir);
    snprintf(rom_name, sizeof rom_name, "rom.%s", sys->extensions[0]);
    uint8_t *bytes;
    size_t size;
    assert_int_equal(rg__read_file(g->rom.path, 64u << 20, &bytes, &size), RG_OK);
    snprintf(path, sizeof path, "%s/%s", dir, rom_name);
    assert_int_equal(rg__write_file_atomic(path, bytes, size), RG_OK);
    char sha[RG_INTEGRATION_SHA1_HEX + 2];
    assert_int_equal(rg_integration_rom_sha1(bytes, size, rom_name, sha), RG_OK);
    free(bytes);
    strcat(sha, "\n");
    write_text(dir, "rom.sha", sha);
    const char *pad_type = g->rom.pad_bytes == 1 ? "|u1" : g->rom.pad_big_endian ? ">u2" : "<u2";
    snprintf(text, sizeof text,
             "{\"info\": {\"counter\": {\"address\": %llu, \"type\": \"|u1\"}, "
             "\"pad\": {\"address\": %llu, \"type\": \"%s\"}}}",
             (unsigned long long)g->rom.counter_addr, (unsigned long long)g->rom.pad_addr, pad_type);
    write_text(dir, "data.json", text);
    write_text(dir, "scenario.json", "{\"reward\": {\"variables\": {\"counter\": {\"reward\": 1}}}, "
                                     "\"done\": {\"variables\": {\"counter\": {\"op\": \"equal\", \"reference\": 200}}}}");
    write_text(dir, "metadata.json", "{\"default_state\": \"Start\"}");
    rg_emu *emu = test_open(path, g->core);
    for (unsigned f = 0; f < START_FRAMES; f++) {
        rg_emu_set_buttons(emu, 0, (uint16_t)(f % 40 < 20 ? 0 : 1u << 8)); /* something held now and then */
        assert_int_equal(rg_emu_run(emu), RG_OK);
    }
    rg_emu_set_buttons(emu, 0, 0);
    snprintf(path, sizeof path, "%s/Start.state", dir);
    if (rg_emu_state_save_file(emu, path) != RG_OK)
        fail_msg("%s: %s", path, rg_error_last());
    rg_emu_free(emu);
}

static void load_games(void)
{
    test_rom roms[16];
    size_t n = test_roms_load(roms, 16);
    const char *given = getenv("RG_DET_ROOT");
    if (given && *given) {
        snprintf(root, sizeof root, "%s", given);
    } else {
        snprintf(root, sizeof root, "%s/det-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        assert_non_null(mkdtemp(root));
        owner = 1;
        setenv("RG_DET_ROOT", root, 1); /* children use the same files */
    }
    for (size_t i = 0; i < n; i++) {
        det_game *g = &games[n_games];
        memset(g, 0, sizeof *g);
        g->rom = roms[i];
        snprintf(g->system, sizeof g->system, "%s", roms[i].system);
        snprintf(g->game, sizeof g->game, "RetrogymDet%s-%s", roms[i].system, roms[i].system);
        if (!pick_core(g))
            continue;
        if (owner)
            make_game(g);
        n_games++;
    }
    assert_int_equal(rg_integration_paths_create(&paths, root), RG_OK);
    assert_int_equal(rg_integration_paths_add_custom_integration(paths, root), RG_OK);
}

size_t det_games(const det_game **out, const rg_integration_paths **out_paths)
{
    if (!paths)
        load_games();
    *out = games;
    if (out_paths)
        *out_paths = paths;
    return n_games;
}

const det_game *det_game_of(const char *system)
{
    const det_game *g;
    size_t n = det_games(&g, NULL);
    for (size_t i = 0; i < n; i++)
        if (strcmp(g[i].system, system) == 0)
            return &g[i];
    return NULL;
}

void det_cleanup(void)
{
    rg_integration_paths_free(paths);
    paths = NULL;
    if (owner)
        rg__remove_tree(root);
    n_games = 0;
}

int det_teardown(void **state)
{
    (void)state;
    det_cleanup();
    return 0;
}

/* ---- streams ---- */

det_config det_default_config(unsigned steps)
{
    det_config c = {RG_STATE_DEFAULT, 3, 0.25, 8, 0, steps, 1234, 99, RG_AUTORESET_NEXT_STEP};
    return c;
}

rg_env_options det_env_options(const det_game *g, const det_config *c)
{
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = g->game;
    o.state = c->state;
    o.paths = paths;
    o.integrations = RG_INTEGRATIONS_CUSTOM_ONLY;
    o.core = g->core;
    o.actions = RG_ACTIONS_ALL;
    o.frameskip = c->frameskip;
    o.sticky_prob = c->sticky;
    o.noop_max = c->noop_max;
    o.max_episode_steps = c->max_steps;
    o.log = test_quiet_log;
    return o;
}

rg_env *det_env(const det_game *g, const det_config *c, int audio)
{
    rg_env_options o = det_env_options(g, c);
    rg_env *env;
    if (rg__env_create(&env, &o, audio) != RG_OK)
        fail_msg("%s on %s: %s", g->game, g->core_name, rg_error_last());
    return env;
}

static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

void det_action(const det_config *c, unsigned s, unsigned n_buttons, int64_t *action)
{
    for (unsigned i = 0; i < n_buttons; i++)
        action[i] = mix(c->action_seed * 1000003u + (s / 2) * 131u + i) % 3 == 0;
}

uint64_t det_info_hash(const rg_env *env)
{
    uint64_t h = 0;
    for (size_t i = 0; i < rg_env_info_count(env); i++) {
        const char *name;
        int64_t v;
        assert_int_equal(rg_env_info_at(env, i, &name, &v), RG_OK);
        h = test_hash(name, strlen(name) + 1, h);
        h = test_hash(&v, sizeof v, h);
    }
    return h;
}

uint64_t det_audio_hash(const rg_env *env)
{
    const int16_t *samples;
    size_t frames;
    assert_int_equal(rg_emu_audio(rg_env_emu((rg_env *)env), &samples, &frames), RG_OK);
    uint64_t h = test_hash(&frames, sizeof frames, 0);
    return frames ? test_hash(samples, frames * 2 * sizeof *samples, h) : h;
}

static void fill_row(rg_env *env, const uint8_t *obs, det_row *row)
{
    row->obs = test_hash(obs, rg_env_obs_size(env), 0);
    row->ram = det_env_ram_hash(env);
    row->info = det_info_hash(env);
    row->audio = env->capture_audio ? det_audio_hash(env) : 0;
}

static void reset_row(rg_env *env, int seeded, uint64_t seed, uint8_t *obs, det_row *row)
{
    if (rg_env_reset(env, seeded, seed, obs, rg_env_obs_size(env)) != RG_OK)
        fail_msg("reset: %s", rg_error_last());
    fill_row(env, obs, row);
    row->reset = 1;
}

void det_run_from(rg_env *env, const det_config *c, det_stream *s, size_t from)
{
    assert_true(c->steps < DET_MAX_ROWS);
    uint8_t *obs = malloc(rg_env_obs_size(env));
    assert_non_null(obs);
    int64_t action[RG_MAX_BUTTONS];
    unsigned nb = rg_env_num_buttons(env);
    for (size_t k = from + 1; k <= c->steps; k++) {
        det_row *row = &s->rows[k];
        const det_row *prev = &s->rows[k - 1];
        memset(row, 0, sizeof *row);
        det_action(c, (unsigned)k, nb, action);
        if (c->mode == RG_AUTORESET_NEXT_STEP && (prev->terminated || prev->truncated)) {
            reset_row(env, 0, 0, obs, row); /* the action is ignored, as in the pool */
            continue;
        }
        rg_step_result r;
        if (rg_env_step(env, action, nb, obs, rg_env_obs_size(env), &r) != RG_OK)
            fail_msg("step %zu: %s", k, rg_error_last());
        fill_row(env, obs, row);
        row->reward = r.rewards[0];
        row->terminated = (uint8_t)r.terminated;
        row->truncated = (uint8_t)r.truncated;
        if (c->mode == RG_AUTORESET_SAME_STEP && (r.terminated || r.truncated)) {
            row->final_obs = row->obs;
            row->final_info = row->info;
            det_row after;
            reset_row(env, 0, 0, obs, &after);
            row->obs = after.obs;
            row->ram = after.ram;
            row->info = after.info;
            row->audio = after.audio;
            row->reset = 1;
        }
    }
    s->n = c->steps + 1;
    free(obs);
}

void det_run(rg_env *env, const det_config *c, det_stream *out)
{
    uint8_t *obs = malloc(rg_env_obs_size(env));
    assert_non_null(obs);
    memset(&out->rows[0], 0, sizeof out->rows[0]);
    reset_row(env, 1, c->seed, obs, &out->rows[0]);
    free(obs);
    det_run_from(env, c, out, 0);
}

static uint64_t row_hash(const det_row *r, int with_audio)
{
    det_row copy = *r;
    if (!with_audio)
        copy.audio = 0;
    uint64_t h = test_hash(&copy.obs, 6 * sizeof(uint64_t), 0);
    h = test_hash(&copy.reward, sizeof copy.reward, h);
    uint8_t flags[3] = {copy.terminated, copy.truncated, copy.reset};
    return test_hash(flags, sizeof flags, h);
}

uint64_t det_stream_hash(const det_stream *s, int with_audio)
{
    uint64_t h = 0;
    for (size_t i = 0; i < s->n; i++) {
        uint64_t r = row_hash(&s->rows[i], with_audio);
        h = test_hash(&r, sizeof r, h);
    }
    return h;
}

static void compare_rows(const char *what, const det_stream *a, const det_stream *b, size_t from, size_t to,
                         int with_audio)
{
    for (size_t i = from; i < to; i++) {
        const det_row *x = &a->rows[i], *y = &b->rows[i];
        if (x->obs != y->obs || x->ram != y->ram || x->info != y->info || x->reward != y->reward ||
            x->terminated != y->terminated || x->truncated != y->truncated || x->reset != y->reset ||
            x->final_obs != y->final_obs || x->final_info != y->final_info || (with_audio && x->audio != y->audio))
            fail_msg("%s: row %zu differs (obs %d, RAM %d, info %d, reward %g/%g, terminated %d/%d, truncated "
                     "%d/%d, reset %d/%d, final %d, audio %d)",
                     what, i, x->obs != y->obs, x->ram != y->ram, x->info != y->info, (double)x->reward,
                     (double)y->reward, x->terminated, y->terminated, x->truncated, y->truncated, x->reset, y->reset,
                     x->final_obs != y->final_obs || x->final_info != y->final_info,
                     with_audio && x->audio != y->audio);
    }
}

void det_expect_equal(const char *what, const det_stream *a, const det_stream *b, size_t from, int with_audio)
{
    if (a->n != b->n)
        fail_msg("%s: %zu rows, expected %zu", what, b->n, a->n);
    compare_rows(what, a, b, from, a->n, with_audio);
}

void det_expect_prefix(const char *what, const det_stream *a, const det_stream *b, int with_audio)
{
    if (b->n > a->n)
        fail_msg("%s: %zu rows, more than %zu", what, b->n, a->n);
    compare_rows(what, a, b, 0, b->n, with_audio);
}

size_t det_audio_mismatches(const det_stream *a, const det_stream *b, size_t from)
{
    size_t n = 0;
    for (size_t i = from; i < a->n && i < b->n; i++)
        n += a->rows[i].audio != b->rows[i].audio;
    return n;
}

/* ---- child processes ---- */

char *det_child(const char *const *args, size_t n)
{
    char out[1200];
    snprintf(out, sizeof out, "%s/child-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    int fd = mkstemp(out);
    assert_true(fd >= 0);
    close(fd);
    char self[1024];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    assert_true(len > 0);
    self[len] = '\0';
    const char **argv = calloc(n + 4, sizeof *argv);
    assert_non_null(argv);
    argv[0] = self;
    argv[1] = "--child";
    for (size_t i = 0; i < n; i++)
        argv[2 + i] = args[i];
    argv[2 + n] = out;
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execv(self, (char *const *)argv);
        _exit(127);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    free(argv);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("the child process (%s %s) failed: status 0x%x", args[0], n > 1 ? args[1] : "", status);
    uint8_t *text;
    size_t size;
    assert_int_equal(rg__read_file(out, 64u << 20, &text, &size), RG_OK);
    unlink(out);
    char *s = malloc(size + 1);
    assert_non_null(s);
    memcpy(s, text, size);
    s[size] = '\0';
    free(text);
    return s;
}

/* ---- per-core facts ---- */

/* Measured by test_det_cores.c and listed in docs/determinism.md; a change in a core fails that test. */
static const det_core_facts facts[] = {
    /* core, system (NULL: any), audio in the state, retro_reset = power-on, unstable first frames, junk range */
    {"atari2600", NULL, 1, 0, 0, 0, 0},
    {"stella", NULL, 1, 1, 0, 0, 0},
    {"nestopia", NULL, 1, 0, 0, 0, 0},
    {"fceumm", NULL, 0, 0, 0, 0x6000, 0x2000},
    {"bsnes_mercury_performance", NULL, 1, 0, 0, 0, 0},
    {"snes9x", NULL, 0, 0, 0, 0, 0},
    {"gambatte", NULL, 0, 0, 0, 0, 0},
    {"mgba", NULL, 0, 1, 0, 0, 0},
    /* stable-retro's build of mGBA (older than Debian's; found first when $RETROGYM_CORE_PATH names the wheel's
     * cores): retro_reset is no power-on on Game Boy games (the first frame's picture) */
    {"mgba@wheel", "GameBoy", 0, 0, 0, 0, 0},
    {"mgba@wheel", "GbColor", 0, 0, 0, 0, 0},
    {"mgba@wheel", NULL, 0, 1, 0, 0, 0},
    {"mednafen_pce_fast", NULL, 0, 0, 0, 0, 0},
    {"genesis_plus_gx", NULL, 0, 0, 0, 0, 0},
    {"picodrive", "Genesis", 1, 1, 1, 0, 0},
    {"picodrive", NULL, 1, 0, 0, 0, 0},
    {"sms", NULL, 1, 0, 0, 0, 0},
    {"gamegear", NULL, 1, 0, 0, 0, 0},
    {"nes", NULL, 1, 0, 0, 0, 0},
    {"genesis", NULL, 1, 0, 0, 0, 0},
};

static const det_core_facts *find_facts(const char *core, const char *system)
{
    for (size_t i = 0; i < sizeof facts / sizeof *facts; i++)
        if (strcmp(facts[i].core, core) == 0 && (!facts[i].system || strcmp(facts[i].system, system) == 0))
            return &facts[i];
    return NULL;
}

const det_core_facts *det_core_facts_wheel(const char *core, const char *system)
{
    char name[128];
    snprintf(name, sizeof name, "%s@wheel", core);
    const det_core_facts *f = find_facts(name, system);
    return f ? f : det_core_facts_of(core, system);
}

const det_core_facts *det_core_facts_of(const char *core, const char *system)
{
    const det_core_facts *f = find_facts(core, system);
    if (f)
        return f;
    fail_msg("no facts for core %s on %s in tests/determinism/det.c (measure them with test_det_cores)", core, system);
    return NULL;
}

uint64_t det_ram_hash(const rg_emu *emu, const det_core_facts *f)
{
    const rg_mem_block *b;
    size_t n;
    assert_int_equal(rg_emu_mem_blocks(emu, &b, &n), RG_OK);
    uint64_t h = 0;
    for (size_t i = 0; i < n; i++)
        if (!f || !f->junk_len || b[i].base + b[i].size <= f->junk_addr || b[i].base >= f->junk_addr + f->junk_len)
            h = test_hash(b[i].data, b[i].size, h);
    return h;
}

uint64_t det_env_ram_hash(rg_env *env)
{
    rg_emu *emu = rg_env_emu(env);
    return det_ram_hash(emu, find_facts(rg_emu_core_name(emu), rg_env_system(env)->name));
}
