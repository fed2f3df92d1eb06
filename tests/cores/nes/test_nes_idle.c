/* Idle loops (src/cores/nes/nes_machine.c, docs/nes.md "Speed"): the machine counts the cycles of a game's
 * wait-for-NMI loop (`JMP *`, `LDA mem [CMP #] Bxx back`) at once. The same ROM with the same input runs twice, once
 * with that and once cycle by cycle (m->idle_off); the whole state (CPU, RAM, cycle count, PPU, APU, cartridge) and
 * the picture must be equal after every frame, and the first run must have skipped cycles (else the test proves
 * nothing). Our StarCatcher (`LDA zp; BEQ`) always; Super Mario Bros. (`JMP *`, gym-super-mario-bros' wheel in .venv)
 * and the demo Dr88-FamiconIntro (`LDA abs; CMP #; BNE`, ../shared) when present. */
#include "test_support.h"

#include "nes_harness.h"

#include <glob.h>
#include <stdlib.h>
#include <string.h>

#define FRAMES 900

/* Seeded pads: a new byte every 8 frames, START now and then so that games leave their titles. */
static uint8_t pad(unsigned f)
{
    uint32_t k = (f / 8u + 1u) * 2654435761u;
    k ^= k >> 15;
    k *= 2246822519u;
    k ^= k >> 13;
    uint8_t b = (uint8_t)(k & 0xC3u); /* A, B, LEFT, RIGHT */
    if (((k >> 20) & 7u) == 0)
        b |= 0x08u; /* START */
    return b;
}

/* Runs the ROM both ways; returns the cycles the first run counted at once (0 when the ROM is absent). */
static uint64_t both_ways(const char *path)
{
    nes_harness a, b;
    if (nes_harness_open(&a, path) != RG_OK)
        return 0;
    assert_int_equal(nes_harness_open(&b, path), RG_OK);
    b.m->idle_off = 1;
    for (unsigned f = 0; f < FRAMES; f++) {
        a.m->buttons[0] = b.m->buttons[0] = pad(f);
        a.m->video = b.m->video = (f & 3u) == 3u; /* frame skip 4, as agents run */
        rg__nes_run_frame(a.m);
        rg__nes_run_frame(b.m);
        if (memcmp(&a.m->st, &b.m->st, sizeof a.m->st) != 0 ||
            memcmp(a.fb, b.fb, (size_t)RG__NES_WIDTH * RG__NES_HEIGHT * sizeof *a.fb) != 0) {
            fprintf(stderr, "%s: frame %u differs (cycles %llu vs %llu, pc %04x vs %04x)\n", path, f,
                    (unsigned long long)a.m->st.cycles, (unsigned long long)b.m->st.cycles, a.m->st.cpu.pc,
                    b.m->st.cpu.pc);
            fail();
        }
    }
    assert_int_equal(b.m->idle_cycles, 0);
    uint64_t n = a.m->idle_cycles;
    fprintf(stderr, "%s: %llu of %llu cycles counted at once\n", path, (unsigned long long)n,
            (unsigned long long)a.m->st.cycles);
    nes_harness_free(&a);
    nes_harness_free(&b);
    return n;
}

static void star_catcher(void **state)
{
    (void)state;
    uint64_t n = both_ways(RG_SOURCE_DIR "/data/stable/StarCatcher-Nes/rom.nes");
    assert_true(n > (uint64_t)FRAMES * 10000u); /* it waits for its NMI most of every frame */
}

static void others(void **state)
{
    (void)state;
    int ran = 0;
    glob_t g;
    if (glob(RG_SOURCE_DIR "/.venv/lib/python3*/site-packages/gym_super_mario_bros/_roms/super-mario-bros.nes", 0,
             NULL, &g) == 0 && g.gl_pathc > 0) {
        assert_true(both_ways(g.gl_pathv[0]) > (uint64_t)FRAMES * 5000u);
        ran++;
    }
    globfree(&g);
    FILE *f = fopen(RG_SOURCE_DIR "/../shared/roms/Dr88-FamiconIntro.nes", "rb");
    if (f) {
        fclose(f);
        assert_true(both_ways(RG_SOURCE_DIR "/../shared/roms/Dr88-FamiconIntro.nes") > 0);
        ran++;
    }
    if (!ran)
        skip();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(star_catcher),
        cmocka_unit_test(others),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
