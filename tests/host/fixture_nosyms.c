/* A shared object that is not a libretro core: it has no retro_* symbols. Used by test_bad_input. */
int rg_fixture_not_a_core(void);
int rg_fixture_not_a_core(void)
{
    return 42;
}
