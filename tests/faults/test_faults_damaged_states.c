/* The standing damaged-state campaign (docs/reliability.md "Damaged save states"): for our Atari core and each
 * Debian core that is installed, a real state of our test ROM is damaged a few hundred seeded ways (bit flips, byte
 * runs, truncations, extensions) and each damaged state is loaded, then run for a few frames, in a child forked from
 * a parent that holds the loaded game. Each attempt ends refused (a clear error), loaded (and ran), crashed (a
 * signal or an exit from inside the core) or hung (past the child's alarm).
 *
 * Asserted: every attempt is accounted for and the parent survives every child and still runs and restores its
 * state (containment); our own core never crashes or hangs, refuses some damage and takes some. Third-party cores
 * may crash (that is the finding this campaign measures): their counts are printed, not asserted. */
#include "faults_util.h"

#define ATTEMPTS 300u     /* damaged states per core */
#define RUN_FRAMES 10u    /* frames run after a load that was taken */
#define HANG_SECONDS 5u   /* a child still running after this is hung */

typedef struct tally {
    unsigned attempts, refused, loaded, run_failed, crashed, hung;
    unsigned refused_by[4], crashed_by[4]; /* per kind of damage: flips, runs, cut short, extended */
} tally;

/* xorshift64*: the mutations depend on the seed only */
static uint64_t next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

/* Damage number i of `state` into a fresh buffer (the caller frees it); *len its length. */
static uint8_t *damage(const uint8_t *state, size_t size, unsigned i, uint64_t seed, size_t *len)
{
    uint64_t s = seed ^ (0x9e3779b97f4a7c15ull * (i + 1));
    next(&s);
    uint8_t *out = malloc(size + 4096);
    assert_non_null(out);
    memcpy(out, state, size);
    *len = size;
    switch (i % 4) {
    case 0: { /* 1 to 16 bit flips */
        unsigned n = 1 + (unsigned)(next(&s) % 16);
        for (unsigned k = 0; k < n; k++) {
            size_t at = (size_t)(next(&s) % size);
            out[at] ^= (uint8_t)(1u << (next(&s) % 8));
        }
        break;
    }
    case 1: { /* a run of 1 to 256 bytes set to 0x00, 0xFF or random */
        size_t run = 1 + (size_t)(next(&s) % 256), at = (size_t)(next(&s) % size);
        if (at + run > size)
            run = size - at;
        unsigned kind = (unsigned)(next(&s) % 3);
        for (size_t k = 0; k < run; k++)
            out[at + k] = kind == 0 ? 0x00 : kind == 1 ? 0xFF : (uint8_t)next(&s);
        break;
    }
    case 2: /* cut short anywhere (possibly to nothing) */
        *len = (size_t)(next(&s) % size);
        break;
    default: { /* 1 to 4096 bytes more */
        size_t more = 1 + (size_t)(next(&s) % 4096);
        for (size_t k = 0; k < more; k++)
            out[size + k] = (uint8_t)next(&s);
        *len = size + more;
        break;
    }
    }
    return out;
}

/* One attempt, in a child: exits 10 loaded and ran, 11 refused, 12 loaded but a frame failed (codes no sanitizer or
 * core uses); any other end is a crash. quiet: the child's stderr (third-party cores' chatter) goes to /dev/null. */
static void attempt(rg_emu *emu, const uint8_t *bytes, size_t len, int quiet, unsigned kind, tally *t)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        fail_msg("fork: %s", strerror(errno));
    if (pid == 0) {
        child_prepare(CHILD_CRASHY, 0);
        signal(SIGALRM, SIG_DFL);
        alarm(HANG_SECONDS);
        if (quiet)
            (void)freopen("/dev/null", "w", stderr);
        if (rg_emu_state_load(emu, bytes, len) != RG_OK)
            _exit(11);
        for (unsigned f = 0; f < RUN_FRAMES; f++)
            if (rg_emu_run(emu) != RG_OK)
                _exit(12);
        _exit(10);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            fail_msg("waitpid: %s", strerror(errno));
    t->attempts++;
    int refused = WIFEXITED(status) && WEXITSTATUS(status) == 11;
    int crashed = !(WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) &&
                  (WIFSIGNALED(status) || (WEXITSTATUS(status) != 10 && WEXITSTATUS(status) != 11 &&
                                           WEXITSTATUS(status) != 12));
    t->refused_by[kind] += refused;
    t->crashed_by[kind] += crashed;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
        t->hung++;
    else if (WIFSIGNALED(status))
        t->crashed++;
    else if (WEXITSTATUS(status) == 10)
        t->loaded++;
    else if (WEXITSTATUS(status) == 11)
        t->refused++;
    else if (WEXITSTATUS(status) == 12)
        t->run_failed++;
    else
        t->crashed++; /* the core called exit(), or a sanitizer's report */
}

/* The campaign on one system's test ROM and core; returns 0 and leaves *t zero when the core is not installed. */
static int campaign(const char *system, tally *t)
{
    memset(t, 0, sizeof *t);
    test_rom rom;
    test_rom_get(system, &rom);
    if (!rom.core[0] || !test_core_installed(rom.core)) {
        print_message("damaged states: %s: core %s not installed, skipped\n", system, rom.core);
        return 0;
    }
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = rom.core;
    rg_emu *emu = NULL;
    EXPECT_OK(rg_emu_open(&emu, rom.path, &o));
    run_frames(emu, rom.warmup + 60);
    size_t size = 0, written = 0;
    EXPECT_OK(rg_emu_state_size(emu, &size));
    uint8_t *state = malloc(size);
    assert_non_null(state);
    EXPECT_OK(rg_emu_state_save(emu, state, size, &written));
    assert_int_equal(written, size);
    uint64_t ram = test_ram_hash(emu);

    uint64_t seed = test_hash(system, strlen(system), 16);
    for (unsigned i = 0; i < ATTEMPTS; i++) {
        size_t len;
        uint8_t *bad = damage(state, size, i, seed, &len);
        attempt(emu, bad, len, strcmp(rom.core, "atari2600") != 0, i % 4, t);
        free(bad);
    }
    /* containment: the parent's game is untouched by its children and still runs and restores */
    assert_true(test_ram_hash(emu) == ram);
    run_frames(emu, 5);
    EXPECT_OK(rg_emu_state_load(emu, state, size));
    assert_true(test_ram_hash(emu) == ram);
    assert_int_equal(t->attempts, ATTEMPTS);
    assert_int_equal(t->refused + t->loaded + t->run_failed + t->crashed + t->hung, ATTEMPTS);
    print_message("damaged states: %-9s %-26s %u attempts: %u refused, %u loaded and ran %u frames, %u loaded but "
                  "a frame failed, %u crashed, %u hung (state %zu bytes)\n",
                  system, rom.core, t->attempts, t->refused, t->loaded, RUN_FRAMES, t->run_failed, t->crashed,
                  t->hung, size);
    print_message("damaged states: %-9s refused by kind (flips, runs, cut short, extended): %u %u %u %u; crashed: "
                  "%u %u %u %u\n",
                  system, t->refused_by[0], t->refused_by[1], t->refused_by[2], t->refused_by[3], t->crashed_by[0],
                  t->crashed_by[1], t->crashed_by[2], t->crashed_by[3]);
    free(state);
    rg_emu_free(emu);
    return 1;
}

/* Our own core: never a crash or a hang; some damage refused, some taken (bit flips in RAM are valid states). */
static void own_core_never_crashes(void **unused)
{
    (void)unused;
    tally t;
    assert_true(campaign("Atari2600", &t));
    assert_int_equal(t.crashed, 0);
    assert_int_equal(t.hung, 0);
    assert_true(t.refused > 0);
    assert_true(t.loaded > 0);
}

#define THIRD_PARTY(name, system)                                                                                 \
    static void name(void **unused)                                                                               \
    {                                                                                                             \
        (void)unused;                                                                                             \
        tally t;                                                                                                  \
        if (!campaign(system, &t))                                                                                \
            skip();                                                                                               \
        /* the campaign reached the core: some damage taken (the parent's checks do not refuse all) */         \
        assert_true(t.loaded + t.run_failed + t.crashed + t.hung > 0);                                            \
    }
THIRD_PARTY(gambatte_contained, "GameBoy")

/* bsnes-mercury crashed on states cut short (it reads past the length it is given); the host now refuses those for
 * it (src/host/lr_host.c), and no other damage of the campaign crashed it. */
static void bsnes_mercury_contained(void **unused)
{
    (void)unused;
    tally t;
    if (!campaign("Snes", &t))
        skip();
    assert_true(t.loaded + t.run_failed > 0);
    assert_int_equal(t.refused_by[2], ATTEMPTS / 4); /* every cut-short state refused before the core sees it */
    assert_int_equal(t.crashed_by[2], 0);
}
THIRD_PARTY(pce_fast_contained, "PCEngine")
THIRD_PARTY(nestopia_contained, "Nes")
THIRD_PARTY(mgba_contained, "GbAdvance")

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(own_core_never_crashes), cmocka_unit_test(gambatte_contained),
        cmocka_unit_test(bsnes_mercury_contained), cmocka_unit_test(pce_fast_contained),
        cmocka_unit_test(nestopia_contained),     cmocka_unit_test(mgba_contained),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
