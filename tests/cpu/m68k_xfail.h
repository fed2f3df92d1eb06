/* Cases of the SingleStepTests 68000 suite that test_m68k_suite allows to fail, per file: {"FILE", count}.
 * Empty: every case of every file passes, TAS and TRAPV included (see docs/m68k.md). A file that does better than
 * its allowance is reported so that its number can be lowered. The list ends with {NULL, 0}. */
static const struct {
    const char *file;
    int allowed;
} m68k_xfail[] = {
    {NULL, 0},
};

/* Cases whose reads and writes (idle and faulting cycles left out) may come in another order than the suite
 * records, per file (registers, RAM and clocks still match). Empty: every case keeps the order. The list ends with
 * {NULL, 0}. */
static const struct {
    const char *file;
    int allowed;
} m68k_order_xfail[] = {
    {NULL, 0},
};
