/* Genesis Plus GX save states (stable-retro's Genesis start states, Airstriker-Genesis' Level1.state among them)
 * converted into our Genesis machine state. The layout and what is converted are in docs/genesis.md ("State
 * import"). */
#ifndef RG_SRC_CORES_GENESIS_GENESIS_GPGX_STATE_H
#define RG_SRC_CORES_GENESIS_GENESIS_GPGX_STATE_H

#include <stddef.h>

#include "cores/genesis/genesis.h"

/* Converts the Genesis Plus GX state src for the cartridge loaded in m into out (what GPGX does not save comes from
 * base, a power-on state of the same cartridge). Every field is checked; the result still has to pass
 * rg__gen_state_check. RG_ESTATE naming what is missing (a feature our core lacks) or wrong. */
int rg__gen_gpgx_read(const rg__gen_machine *m, const rg__gen_state *base, const void *src, size_t len,
                      rg__gen_state *out);

/* Loads the Genesis Plus GX state into m (converted, checked, installed); on an error m is unchanged. */
int rg__gen_gpgx_load(rg__gen_machine *m, const void *src, size_t len);

#endif
