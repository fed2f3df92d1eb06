/* Per-core facts of determinism (docs/determinism.md, "Per core"), measured on our test ROMs with every core that
 * runs them here (installed ones, and stable-retro's builds of the others): video and RAM after a state restore
 * equal the straight run; whether the audio does too; a state loaded into a fresh instance gives the same video,
 * RAM and audio in this process and in another; boot is identical in another process, audio included; whether
 * retro_reset alone reproduces boot; our power-on reset (a fresh copy of the core) reproduces it exactly. The
 * measured facts must match the table in det.c (and the document). */
#define _GNU_SOURCE
#include "det.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define FRAMES 60
#define SETTLE 2 /* frames a fresh instance runs before a state is loaded, as rg_env_create does */

typedef struct frame_hashes {
    uint64_t video[FRAMES], ram[FRAMES], audio[FRAMES];
} frame_hashes;

static uint16_t input_at(unsigned f)
{
    uint64_t x = (uint64_t)(f / 5 + 1) * 0x9E3779B97F4A7C15ull;
    x ^= x >> 31;
    return (uint16_t)(x & 0x0FF3); /* no SELECT/START */
}

static rg_emu *open_emu(const char *rom, const char *core)
{
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = core;
    o.log = test_quiet_log;
    o.capture_audio = 1;
    rg_emu *emu;
    if (rg_emu_open(&emu, rom, &o) != RG_OK)
        fail_msg("%s in %s: %s", rom, core, rg_error_last());
    return emu;
}

static uint64_t audio_hash(const rg_emu *emu)
{
    const int16_t *s;
    size_t n;
    assert_int_equal(rg_emu_audio(emu, &s, &n), RG_OK);
    uint64_t h = test_hash(&n, sizeof n, 0);
    return n ? test_hash(s, n * 4, h) : h;
}

/* FRAMES frames with the input of frames first.. (counted from boot or from the state). */
static const det_core_facts *facts; /* of the core being measured */

static void run(rg_emu *emu, unsigned first, frame_hashes *h)
{
    for (unsigned i = 0; i < FRAMES; i++) {
        rg_emu_set_buttons(emu, 0, input_at(first + i));
        assert_int_equal(rg_emu_run(emu), RG_OK);
        h->video[i] = test_frame_hash(emu);
        h->ram[i] = det_ram_hash(emu, facts);
        h->audio[i] = audio_hash(emu);
    }
}

static unsigned mismatches(const uint64_t *a, const uint64_t *b)
{
    unsigned n = 0;
    for (unsigned i = 0; i < FRAMES; i++)
        n += a[i] != b[i];
    return n;
}

static unsigned mismatches_before(const uint64_t *a, const uint64_t *b, unsigned n)
{
    unsigned d = 0;
    for (unsigned i = 0; i < n; i++)
        d += a[i] != b[i];
    return d;
}

static int first_mismatch(const uint64_t *a, const uint64_t *b)
{
    for (unsigned i = 0; i < FRAMES; i++)
        if (a[i] != b[i])
            return (int)i;
    return -1;
}

/* Frames from `from` on, pictures from `pictures_from` on (a core's unstable first frames left out). */
static uint64_t all_hash(const frame_hashes *h, unsigned pictures_from)
{
    uint64_t x = test_hash(h->ram, sizeof h->ram, 0);
    x = test_hash(h->audio, sizeof h->audio, x);
    return test_hash(h->video + pictures_from, (FRAMES - pictures_from) * sizeof *h->video, x);
}

static int same(const frame_hashes *a, const frame_hashes *b, unsigned pictures_from)
{
    return all_hash(a, pictures_from) == all_hash(b, pictures_from);
}

/* A fresh instance: SETTLE frames, then the state, then FRAMES frames. */
static void from_state(const char *rom, const char *core, const void *st, size_t len, frame_hashes *h)
{
    rg_emu *emu = open_emu(rom, core);
    for (unsigned i = 0; i < SETTLE; i++)
        assert_int_equal(rg_emu_run(emu), RG_OK);
    assert_int_equal(rg_emu_state_load(emu, st, len), RG_OK);
    run(emu, FRAMES, h);
    rg_emu_free(emu);
}

/* Child: boot and a state loaded into a fresh instance, as two hashes. */
static int child_main(int argc, char **argv)
{
    if (argc != 6)
        return 2;
    const char *rom = argv[0], *core = argv[1], *state_path = argv[2];
    facts = det_core_facts_of(argv[3], argv[4]);
    unsigned unstable = facts->unstable_frames;
    static frame_hashes boot, restored;
    rg_emu *emu = open_emu(rom, core);
    run(emu, 0, &boot);
    rg_emu_free(emu);
    uint8_t *st = NULL;
    size_t len = 0;
    FILE *f = fopen(state_path, "rb");
    if (!f)
        return 3;
    fseek(f, 0, SEEK_END);
    len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    st = malloc(len);
    if (!st || fread(st, 1, len, f) != len)
        return 4;
    fclose(f);
    from_state(rom, core, st, len, &restored);
    free(st);
    f = fopen(argv[5], "w");
    if (!f)
        return 5;
    fprintf(f, "%016llx %016llx\n", (unsigned long long)all_hash(&boot, unstable),
            (unsigned long long)all_hash(&restored, 0));
    return fclose(f) == 0 ? 0 : 6;
}

typedef struct measured {
    unsigned audio_after_restore; /* frames whose audio differs after a restore in the same instance */
    int soft_reset_is_power_on;
    unsigned soft_video, soft_ram;
    int soft_first_video, soft_first_ram;
} measured;

static void measure(const char *system, const char *rom, const char *core, const char *core_name, int wheel,
                    unsigned unstable, measured *m)
{
    static frame_hashes boot, straight, again, again2, fresh1, fresh2, soft, power;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rg_emu *emu = open_emu(rom, core);
    run(emu, 0, &boot);
    size_t len;
    assert_int_equal(rg_emu_state_size(emu, &len), RG_OK);
    uint8_t *st = malloc(len);
    assert_non_null(st);
    assert_int_equal(rg_emu_state_save(emu, st, len, &len), RG_OK);
    run(emu, FRAMES, &straight);
    assert_int_equal(rg_emu_state_load(emu, st, len), RG_OK);
    run(emu, FRAMES, &again);
    for (unsigned i = 0; i < 37; i++) { /* another history, of an odd length: a resampler's phase moves on */
        rg_emu_set_buttons(emu, 0, input_at(1000 + i));
        assert_int_equal(rg_emu_run(emu), RG_OK);
    }
    assert_int_equal(rg_emu_state_load(emu, st, len), RG_OK);
    run(emu, FRAMES, &again2);
    if (mismatches(straight.video, again.video) || mismatches(straight.ram, again.ram) ||
        mismatches(straight.video, again2.video) || mismatches(straight.ram, again2.ram))
        fail_msg("%s/%s: video or RAM after a restore differ from the straight run", system, core_name);
    m->audio_after_restore = mismatches(straight.audio, again.audio) + mismatches(straight.audio, again2.audio);

    /* Soft reset (retro_reset) against boot: video and RAM. */
    assert_int_equal(rg_emu_soft_reset(emu), RG_OK);
    run(emu, 0, &soft);
    m->soft_video = mismatches(boot.video, soft.video) - mismatches_before(boot.video, soft.video, unstable);
    m->soft_ram = mismatches(boot.ram, soft.ram);
    m->soft_first_video = first_mismatch(boot.video, soft.video);
    m->soft_first_ram = first_mismatch(boot.ram, soft.ram);
    m->soft_reset_is_power_on = m->soft_video == 0 && m->soft_ram == 0;

    /* Our power-on reset: boot exactly, audio included. */
    assert_int_equal(rg_emu_reset(emu), RG_OK);
    run(emu, 0, &power);
    if (!same(&boot, &power, unstable))
        fail_msg("%s/%s: a power-on reset differs from boot (video %u frames from %d, RAM %u from %d, audio %u from "
                 "%d)",
                 system, core_name, mismatches(boot.video, power.video), first_mismatch(boot.video, power.video),
                 mismatches(boot.ram, power.ram), first_mismatch(boot.ram, power.ram),
                 mismatches(boot.audio, power.audio), first_mismatch(boot.audio, power.audio));
    rg_emu_free(emu);

    /* A state loaded into two fresh instances: identical, audio included. */
    from_state(rom, core, st, len, &fresh1);
    from_state(rom, core, st, len, &fresh2);
    if (!same(&fresh1, &fresh2, 0))
        fail_msg("%s/%s: a state loaded into two fresh instances runs differently (audio %u frames)", system,
                 core_name, mismatches(fresh1.audio, fresh2.audio));
    if (mismatches(straight.video, fresh1.video) || mismatches(straight.ram, fresh1.ram))
        fail_msg("%s/%s: video or RAM from a state in a fresh instance differ from the straight run", system,
                 core_name);

    /* The same in another process. */
    char path[1024];
    snprintf(path, sizeof path, "%s/state-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, st, len), (ssize_t)len);
    close(fd);
    const char *args[] = {rom, core, path, core_name, system};
    char *out = det_child(args, 5);
    unlink(path);
    unsigned long long b, r;
    assert_int_equal(sscanf(out, "%llx %llx", &b, &r), 2);
    free(out);
    if (b != all_hash(&boot, unstable))
        fail_msg("%s/%s: boot differs in another process", system, core_name);
    if (r != all_hash(&fresh1, 0))
        fail_msg("%s/%s: a state loaded in another process runs differently", system, core_name);
    free(st);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    print_message("%-10s %-26s%s audio after 2 restores: %3u/%u frames differ; retro_reset = power-on: %s "
                  "(video %u frames from %d, RAM %u from %d) %.2f s\n",
                  system, core_name, wheel ? " (wheel)" : "        ", m->audio_after_restore, 2 * FRAMES,
                  m->soft_reset_is_power_on ? "yes" : "no ", m->soft_video, m->soft_first_video, m->soft_ram,
                  m->soft_first_ram,
                  (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
}

/* Whether the core the path finds by name is stable-retro's build in its wheel. */
static int found_in_wheel(const char *name)
{
    char found[1024], whl[1024];
    struct stat a, b;
    return rg_core_resolve(name, found, sizeof found) == RG_OK && det_wheel_core(name, whl, sizeof whl) &&
           stat(found, &a) == 0 && stat(whl, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* Every core of the system's list that is installed, and stable-retro's builds of those that are not. */
static void per_core(void **state)
{
    (void)state;
    test_rom roms[16];
    size_t n = test_roms_load(roms, 16), done = 0;
    char wrong[4096] = "";
    for (size_t i = 0; i < n; i++) {
        const rg_system_info *sys;
        assert_int_equal(rg_system_find(&sys, roms[i].system), RG_OK);
        for (size_t c = 0; c < sys->n_cores; c++) {
            const char *name = sys->cores[c];
            char core[1024];
            int wheel = 0;
            if (test_core_installed(name)) {
                snprintf(core, sizeof core, "%s", name);
                wheel = found_in_wheel(name); /* $RETROGYM_CORE_PATH may name the wheel's cores */
            } else if (det_wheel_core(name, core, sizeof core)) {
                wheel = 1;
            } else {
                continue;
            }
            const det_core_facts *f =
                wheel ? det_core_facts_wheel(name, roms[i].system) : det_core_facts_of(name, roms[i].system);
            facts = f;
            measured m;
            measure(roms[i].system, roms[i].path, core, name, wheel, f->unstable_frames, &m);
            if (f->audio_in_state != (m.audio_after_restore == 0) ||
                f->soft_reset_is_power_on != m.soft_reset_is_power_on) {
                size_t used = strlen(wrong);
                snprintf(wrong + used, sizeof wrong - used, " %s/%s", roms[i].system, name);
            }
            done++;
        }
    }
    if (wrong[0])
        fail_msg("these cores no longer behave as det.c and docs/determinism.md say:%s", wrong);
    if (!done)
        skip();
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--child") == 0)
        return child_main(argc - 2, argv + 2);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(per_core),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
