/**
 * @file actions.h
 * Action groups: the button combinations an agent may press, from the system's defaults or a scenario's "actions",
 * ordered exactly as Gym Retro orders them (groups by ascending bit mask, combinations ascending, duplicates
 * merged) so that FILTERED, DISCRETE and MULTI_DISCRETE action ids mean the same thing as in stable-retro
 * (docs/formats.md, "Action groups"). Immutable after creation; safe to share between threads.
 */
#ifndef RETROGYM_ACTIONS_H
#define RETROGYM_ACTIONS_H

#include "export.h"
#include <retrogym/scenario.h>
#include <retrogym/system.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rg_actionset rg_actionset;

/**
 * Builds the groups of a system, overridden by the scenario's "actions" when it has some (sc may be NULL).
 * Button names the system does not know map to bit n_buttons, as in Gym Retro.
 * @return RG_OK, RG_EINVAL, RG_ENOMEM
 */
RG_API int rg_actionset_create(rg_actionset **out, const rg_system_info *sys, const rg_scenario *sc);
RG_API void rg_actionset_free(rg_actionset *as);

RG_API size_t rg_actionset_group_count(const rg_actionset *as);
/** OR of a group's combinations. */
RG_API uint32_t rg_actionset_group_mask(const rg_actionset *as, size_t group);
RG_API size_t rg_actionset_combo_count(const rg_actionset *as, size_t group);
/** A combination's button mask (bit i = joypad id i); 0 for out-of-range indices. */
RG_API uint32_t rg_actionset_combo(const rg_actionset *as, size_t group, size_t combo);
/** The most DISCRETE actions an env can have (all players together): an action id is an int64. */
#define RG_ACTIONS_MAX_DISCRETE ((uint64_t)INT64_MAX)
/** Number of DISCRETE actions for one player: the product of the group sizes; 0 when it is over
 *  RG_ACTIONS_MAX_DISCRETE (too many groups for DISCRETE actions: the other modes still work). */
RG_API uint64_t rg_actionset_discrete_count(const rg_actionset *as);

/**
 * FILTERED: for each group keep the pressed bits of that group if they form one of its combinations, else drop
 * them; bits outside every group are dropped.
 */
RG_API uint32_t rg_actionset_filter(const rg_actionset *as, uint32_t buttons);
/**
 * DISCRETE: decodes one player's buttons from *action (group by group: index = action mod size, action /= size)
 * and leaves the rest in *action for the next player.
 */
RG_API uint32_t rg_actionset_discrete(const rg_actionset *as, uint64_t *action);
/**
 * MULTI_DISCRETE: ids[i] selects a combination of group i (n must equal the group count).
 * @return RG_OK, RG_EINVAL (wrong count), RG_ERANGE (an id outside its group)
 */
RG_API int rg_actionset_multi_discrete(const rg_actionset *as, const int64_t *ids, size_t n, uint32_t *buttons);

#ifdef __cplusplus
}
#endif
#endif
