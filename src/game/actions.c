/* Action groups in Gym Retro's order (docs/formats.md, "Action groups"). */
#include "base/base.h"

#include <retrogym/actions.h>

#include <stdlib.h>
#include <string.h>

typedef struct group {
    uint32_t mask;
    uint32_t *combos; /* ascending, unique */
    size_t n;
} group;

struct rg_actionset {
    group *groups; /* ascending by mask */
    size_t n;
};

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Adds a group (combos borrowed, copied here) unless one with the same mask exists: the first one wins. */
static int add_group(rg_actionset *as, const uint32_t *combos, size_t n)
{
    uint32_t mask = 0;
    for (size_t i = 0; i < n; i++)
        mask |= combos[i];
    size_t at = 0;
    while (at < as->n && as->groups[at].mask < mask)
        at++;
    if (at < as->n && as->groups[at].mask == mask)
        return RG_OK;
    uint32_t *copy = malloc((n ? n : 1) * sizeof *copy);
    if (!copy)
        return rg__error(RG_ENOMEM, "out of memory");
    memcpy(copy, combos, n * sizeof *copy);
    qsort(copy, n, sizeof *copy, cmp_u32);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (u == 0 || copy[u - 1] != copy[i])
            copy[u++] = copy[i];
    group *g = realloc(as->groups, (as->n + 1) * sizeof *g);
    if (!g) {
        free(copy);
        return rg__error(RG_ENOMEM, "out of memory");
    }
    as->groups = g;
    memmove(g + at + 1, g + at, (as->n - at) * sizeof *g);
    g[at] = (group){mask, copy, u};
    as->n++;
    return RG_OK;
}

static uint32_t button_bit(const rg_system_info *sys, const char *name)
{
    for (unsigned i = 0; i < sys->n_buttons && i < RG_MAX_BUTTONS; i++)
        if (sys->buttons[i] && strcmp(sys->buttons[i], name) == 0)
            return (uint32_t)1 << i;
    return (uint32_t)1 << sys->n_buttons; /* Gym Retro's value for a name it does not know */
}

static int from_scenario(rg_actionset *as, const rg_system_info *sys, const rg_scenario *sc)
{
    size_t ng = rg_scenario_action_group_count(sc);
    for (size_t g = 0; g < ng; g++) {
        size_t nc = rg_scenario_action_combo_count(sc, g);
        uint32_t *combos = malloc((nc ? nc : 1) * sizeof *combos);
        if (!combos)
            return rg__error(RG_ENOMEM, "out of memory");
        for (size_t c = 0; c < nc; c++) {
            combos[c] = 0;
            for (size_t b = 0; b < rg_scenario_action_button_count(sc, g, c); b++)
                combos[c] |= button_bit(sys, rg_scenario_action_button(sc, g, c, b));
        }
        int rc = add_group(as, combos, nc);
        free(combos);
        if (rc != RG_OK)
            return rc;
    }
    return RG_OK;
}

static int from_system(rg_actionset *as, const rg_system_info *sys)
{
    for (size_t g = 0; g < sys->n_actions; g++) {
        const rg_action_group *ag = &sys->actions[g];
        uint32_t combos[64];
        size_t n = ag->n_combos < 64 ? ag->n_combos : 64;
        for (size_t c = 0; c < n; c++)
            combos[c] = ag->combos[c];
        int rc = add_group(as, combos, n);
        if (rc != RG_OK)
            return rc;
    }
    return RG_OK;
}

int rg_actionset_create(rg_actionset **out, const rg_system_info *sys, const rg_scenario *sc)
{
    if (!out || !sys)
        return rg__error(RG_EINVAL, "rg_actionset_create: NULL argument");
    rg_actionset *as = calloc(1, sizeof *as);
    if (!as)
        return rg__error(RG_ENOMEM, "out of memory");
    int rc = sc && rg_scenario_action_group_count(sc) ? from_scenario(as, sys, sc) : from_system(as, sys);
    if (rc != RG_OK) {
        rg_actionset_free(as);
        return rc;
    }
    *out = as;
    return RG_OK;
}

void rg_actionset_free(rg_actionset *as)
{
    if (!as)
        return;
    for (size_t i = 0; i < as->n; i++)
        free(as->groups[i].combos);
    free(as->groups);
    free(as);
}

size_t rg_actionset_group_count(const rg_actionset *as)
{
    return as ? as->n : 0;
}

uint32_t rg_actionset_group_mask(const rg_actionset *as, size_t g)
{
    return as && g < as->n ? as->groups[g].mask : 0;
}

size_t rg_actionset_combo_count(const rg_actionset *as, size_t g)
{
    return as && g < as->n ? as->groups[g].n : 0;
}

uint32_t rg_actionset_combo(const rg_actionset *as, size_t g, size_t c)
{
    return as && g < as->n && c < as->groups[g].n ? as->groups[g].combos[c] : 0;
}

uint64_t rg_actionset_discrete_count(const rg_actionset *as)
{
    uint64_t n = 1;
    for (size_t g = 0; as && g < as->n; g++) {
        uint64_t k = as->groups[g].n ? as->groups[g].n : 1;
        if (n > RG_ACTIONS_MAX_DISCRETE / k)
            return 0; /* over the limit (no wrap-around) */
        n *= k;
    }
    return n;
}

uint32_t rg_actionset_filter(const rg_actionset *as, uint32_t buttons)
{
    uint32_t out = 0;
    for (size_t g = 0; as && g < as->n; g++) {
        const group *gr = &as->groups[g];
        uint32_t masked = buttons & gr->mask;
        if (bsearch(&masked, gr->combos, gr->n, sizeof *gr->combos, cmp_u32))
            out |= masked;
    }
    return out;
}

uint32_t rg_actionset_discrete(const rg_actionset *as, uint64_t *action)
{
    uint32_t out = 0;
    for (size_t g = 0; as && action && g < as->n; g++) {
        const group *gr = &as->groups[g];
        if (gr->n == 0)
            continue;
        out |= gr->combos[*action % gr->n];
        *action /= gr->n;
    }
    return out;
}

int rg_actionset_multi_discrete(const rg_actionset *as, const int64_t *ids, size_t n, uint32_t *buttons)
{
    if (!as || (!ids && n) || !buttons)
        return rg__error(RG_EINVAL, "rg_actionset_multi_discrete: NULL argument");
    if (n != as->n)
        return rg__error(RG_EINVAL, "%zu action ids given for %zu groups", n, as->n);
    uint32_t out = 0;
    for (size_t g = 0; g < n; g++) {
        if (ids[g] < 0 || (uint64_t)ids[g] >= as->groups[g].n)
            return rg__error(RG_ERANGE, "action id %lld outside group %zu (%zu combinations)", (long long)ids[g], g,
                             as->groups[g].n);
        out |= as->groups[g].combos[ids[g]];
    }
    *buttons = out;
    return RG_OK;
}
