/* The determinism suite's shared parts (docs/determinism.md): one integration per test ROM whose system has a core,
 * the seeded streams the tests compare, and running this test binary again as a child process. */
#ifndef RG_TESTS_DETERMINISM_DET_H
#define RG_TESTS_DETERMINISM_DET_H

#include "test_support.h"

#include <retrogym/pool.h>

#include <stdio.h>

/* One system under test: its test ROM, the core that runs it and the integration around it. */
typedef struct det_game {
    char system[32];    /* "Nes" */
    char game[96];      /* "RetrogymDetNes-Nes" */
    char core[1024];    /* what rg_env_options.core gets: a core name, or the path of stable-retro's build */
    char core_name[64]; /* the core's stem: "nestopia", "genesis_plus_gx" */
    int from_wheel;     /* the core is stable-retro's build (found in its wheel, not installed) */
    test_rom rom;
} det_game;

/* The integrations made for this process (or, in a child, by its parent: $RG_DET_ROOT). Each game folder holds the
 * ROM, rom.sha, data.json (counter, pad), scenario.json (+1 per counter step, done at counter 200),
 * metadata.json and Start.state (the core's state 150 frames after boot, so episodes from it end after about 50
 * frames). Systems with no core are left out. Returns the count; *paths is the handle to give to environments. */
size_t det_games(const det_game **games, const rg_integration_paths **paths);
/* The game of a system, or NULL when its system has no core. */
const det_game *det_game_of(const char *system);
/* Removes the integrations (parent only). */
void det_cleanup(void);
/* det_cleanup as a cmocka group teardown. */
int det_teardown(void **state);

/* One cmocka test of fn per system, named fn/<system>, the system's name as the test's state. */
#define SYSTEM_TESTS(fn)                                                                                           \
    {#fn "/Atari2600", fn, NULL, NULL, "Atari2600"}, {#fn "/Nes", fn, NULL, NULL, "Nes"},                          \
        {#fn "/Snes", fn, NULL, NULL, "Snes"}, {#fn "/GameBoy", fn, NULL, NULL, "GameBoy"},                        \
        {#fn "/GbColor", fn, NULL, NULL, "GbColor"}, {#fn "/GbAdvance", fn, NULL, NULL, "GbAdvance"},              \
        {#fn "/PCEngine", fn, NULL, NULL, "PCEngine"}, {#fn "/Genesis", fn, NULL, NULL, "Genesis"},                \
        {#fn "/Sms", fn, NULL, NULL, "Sms"}, {#fn "/GameGear", fn, NULL, NULL, "GameGear"}

/* stable-retro's build of a core (<wheel>/stable_retro/cores/<name>_libretro.so), 0 when absent. */
int det_wheel_core(const char *name, char *out, size_t cap);

/* What a stream is run with. */
typedef struct det_config {
    const char *state;        /* RG_STATE_DEFAULT (the Start state) or RG_STATE_NONE (power-on resets) */
    unsigned frameskip;
    double sticky;
    unsigned noop_max;
    uint64_t max_steps;       /* truncation */
    unsigned steps;           /* rows after the first reset */
    uint64_t seed;            /* of the first reset; later resets continue the generator */
    uint64_t action_seed;
    rg_autoreset_mode mode;   /* NEXT_STEP or SAME_STEP: how an ended episode is reset (the pool's rules) */
} det_config;

#define DET_MAX_ROWS 512

/* One row: what a reset or a step returned. */
typedef struct det_row {
    uint64_t obs, ram, info, audio; /* audio: 0 when not captured */
    uint64_t final_obs, final_info; /* SAME_STEP rows that ended an episode */
    float reward;
    uint8_t terminated, truncated, reset;
} det_row;

typedef struct det_stream {
    det_row rows[DET_MAX_ROWS];
    size_t n;
} det_stream;

/* The configuration of most tests: the Start state, frame skip 3, sticky actions 0.25, up to 8 no-op starts. */
det_config det_default_config(unsigned steps);
rg_env_options det_env_options(const det_game *g, const det_config *c);
/* An environment of the game (fails the test otherwise); audio: the emulator keeps each frame's audio. */
rg_env *det_env(const det_game *g, const det_config *c, int audio);

/* The action of step s (1-based) of a stream: every button pressed with probability 1/3, redrawn every 2 steps. */
void det_action(const det_config *c, unsigned s, unsigned n_buttons, int64_t *action);

/* Hashes of the env's info values (names and values, in order) and of its emulator's last frame of audio. */
uint64_t det_info_hash(const rg_env *env);
uint64_t det_audio_hash(const rg_env *env);

/* Runs a whole stream on env: a seeded reset, then c->steps rows with the autoreset rules of c->mode. */
void det_run(rg_env *env, const det_config *c, det_stream *out);
/* Continues a stream from row `from` (the env in the state it had after that row) up to c->steps. */
void det_run_from(rg_env *env, const det_config *c, det_stream *s, size_t from);
/* One hash of the whole stream (audio only when with_audio). */
uint64_t det_stream_hash(const det_stream *s, int with_audio);
/* Fails the test at the first row of [from, a->n) that differs (audio too when with_audio). */
void det_expect_equal(const char *what, const det_stream *a, const det_stream *b, size_t from, int with_audio);
/* Fails the test at the first row of b that differs from a's. */
void det_expect_prefix(const char *what, const det_stream *a, const det_stream *b, int with_audio);
/* Rows of [from, n) whose audio differs. */
size_t det_audio_mismatches(const det_stream *a, const det_stream *b, size_t from);

/* Runs this test binary as `<self> --child ARGS... OUT` (environment inherited, $RG_DET_ROOT set) and returns what
 * the child wrote to the file OUT, a temporary file this adds as the last argument (malloc'd text; fails the test
 * when the child fails). */
char *det_child(const char *const *args, size_t n);

/* Per-core facts (docs/determinism.md, "Per core"): what the suite expects of each core, checked by the tests. */
typedef struct det_core_facts {
    const char *core;          /* core stem */
    const char *system;        /* NULL: every system the core runs */
    int audio_in_state;        /* audio after a restore equals the straight run's */
    int soft_reset_is_power_on; /* retro_reset alone reproduces boot (video and RAM) */
    unsigned unstable_frames;  /* the first frames after a load whose picture is not reproducible (0 but for a
                                  core bug) */
    uint64_t junk_addr, junk_len; /* an address range the core leaves uninitialized (not compared) */
} det_core_facts;
/* The facts of a core on a system; fails the test when the table has none. */
const det_core_facts *det_core_facts_of(const char *core, const char *system);
/* The facts of stable-retro's build of a core where they differ from the installed build's ("<core>@wheel"),
 * else the core's. */
const det_core_facts *det_core_facts_wheel(const char *core, const char *system);
/* Hash of the memory blocks outside the core's uninitialized range (facts NULL: all of them). */
uint64_t det_ram_hash(const rg_emu *emu, const det_core_facts *facts);
/* The same for an environment's emulator, with its core's facts when the table has them. */
uint64_t det_env_ram_hash(rg_env *env);

#endif
