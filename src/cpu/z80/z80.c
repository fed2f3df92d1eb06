/* The Z80's non-inline parts: power-on state, the state check, T-states and disassembly. */
#include "cpu/z80/z80.h"

#include <stdio.h>
#include <string.h>

void rg__z80_init(rg_z80 *c)
{
    memset(c, 0, sizeof *c);
    c->a = c->f = 0xFFu;
    c->sp = 0xFFFFu;
    c->int_data = 0xFFu;
}

const char *rg__z80_check(const rg_z80 *c)
{
    if (c->iff1 > 1u || c->iff2 > 1u)
        return "the Z80's interrupt flip-flops iff1/iff2 must be 0 or 1";
    if (c->im > 2u)
        return "the Z80's interrupt mode must be 0, 1 or 2";
    if (c->ei > 1u || c->p > 1u || c->halted > 1u)
        return "the Z80's ei, p and halted flags must be 0 or 1";
    if (c->nmi_pending > 1u || c->int_line > 1u)
        return "the Z80's nmi_pending and int_line must be 0 or 1";
    if (c->q != 0u && c->q != c->f)
        return "the Z80's q must be 0 or equal to f";
    return NULL;
}
