/* FCEUmm save states (the start states of stable-retro's NES integrations) converted into our machine state.
 * The layout and what each entry means are described in docs/nes.md ("FCEUmm states and equivalence"). */
#ifndef RG_SRC_CORES_NES_NES_FCEUMM_STATE_H
#define RG_SRC_CORES_NES_NES_FCEUMM_STATE_H

#include <stddef.h>

#include "cores/nes/nes.h"

/* Whether `src` starts as an FCEUmm state does ("FCS"; the state as retro_serialize gave it, not gzipped). */
int rg__nes_fceumm_sniff(const void *src, size_t len);

/* Converts the FCEUmm state `src` for the cartridge loaded in `m` into `out` (what FCEUmm does not save comes from
 * `base`, a power-on state of the same cartridge). Every entry is checked (sizes, ranges); the result still has to
 * pass rg__nes_state_check. RG_ESTATE naming what is missing or wrong. */
int rg__nes_fceumm_read(const rg__nes_machine *m, const rg__nes_state *base, const void *src, size_t len,
                        rg__nes_state *out);

/* Loads the FCEUmm state into m: converts it, checks it field by field, installs it and runs the machine from
 * FCEUmm's frame boundary (the start of line 240) to ours (the vblank of line 241, about 114 CPU cycles, no
 * buttons). On an error m is unchanged. */
int rg__nes_fceumm_load(rg__nes_machine *m, const void *src, size_t len);

#endif
