/* Info columns: every data.json variable of any environment, in name order, written by the workers into the batch
 * as int64 values with a validity byte (0 where the row's env lacks the variable or cannot read it). */
#include "pool_internal.h"

#include <retrogym/gamedata.h>

#include <stdlib.h>
#include <string.h>

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static size_t find_column(const rg_pool *p, const char *name)
{
    size_t lo = 0, hi = p->n_info;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(p->info_names[mid], name);
        if (c == 0)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return SIZE_MAX;
}

int rg__info_init(rg_pool *p)
{
    size_t total = 0;
    for (size_t i = 0; i < p->n; i++)
        total += rg_gamedata_variable_count(rg_env_gamedata(p->envs[i]));
    p->info_off = calloc(p->n + 1, sizeof *p->info_off);
    p->info_col = calloc(total ? total : 1, sizeof *p->info_col);
    char **names = calloc(total ? total : 1, sizeof *names);
    if (!p->info_off || !p->info_col || !names) {
        free(names);
        return rg__error(RG_ENOMEM, "out of memory");
    }
    /* The union of names: collect (borrowed from the envs), sort, drop repeats, copy. */
    size_t k = 0;
    for (size_t i = 0; i < p->n; i++) {
        rg_gamedata *gd = rg_env_gamedata(p->envs[i]);
        size_t nv = rg_gamedata_variable_count(gd);
        for (size_t j = 0; j < nv; j++) {
            rg_variable v;
            if (rg_gamedata_variable_at(gd, j, &v) == RG_OK)
                names[k++] = (char *)v.name;
        }
    }
    qsort(names, k, sizeof *names, cmp_names);
    size_t u = 0;
    for (size_t j = 0; j < k; j++)
        if (u == 0 || strcmp(names[u - 1], names[j]) != 0)
            names[u++] = names[j];
    p->info_names = calloc(u ? u : 1, sizeof *p->info_names);
    int rc = p->info_names ? RG_OK : rg__error(RG_ENOMEM, "out of memory");
    for (size_t j = 0; rc == RG_OK && j < u; j++) {
        p->info_names[j] = rg__strdup(names[j], &rc);
        if (rc == RG_OK)
            p->n_info = j + 1;
    }
    free(names);
    if (rc != RG_OK)
        return rc;
    /* Each env's variable j goes to column info_col[info_off[i] + j]. */
    size_t at = 0;
    for (size_t i = 0; i < p->n; i++) {
        rg_gamedata *gd = rg_env_gamedata(p->envs[i]);
        size_t nv = rg_gamedata_variable_count(gd);
        p->info_off[i] = at;
        for (size_t j = 0; j < nv; j++) {
            rg_variable v;
            p->info_col[at++] = rg_gamedata_variable_at(gd, j, &v) == RG_OK ? find_column(p, v.name) : SIZE_MAX;
        }
    }
    p->info_off[p->n] = at;
    return RG_OK;
}

void rg__info_free(rg_pool *p)
{
    for (size_t j = 0; p->info_names && j < p->n_info; j++)
        free(p->info_names[j]);
    free(p->info_names);
    free(p->info_off);
    free(p->info_col);
}

void rg__info_write(const rg_pool *p, int32_t id, int64_t *values, uint8_t *valid)
{
    if (!p->n_info)
        return;
    memset(values, 0, p->n_info * sizeof *values);
    memset(valid, 0, p->n_info);
    const rg_env *env = p->envs[id];
    size_t nv = p->info_off[id + 1] - p->info_off[id];
    const size_t *cols = p->info_col + p->info_off[id];
    for (size_t j = 0; j < nv; j++) {
        const char *name;
        int64_t value;
        if (cols[j] != SIZE_MAX && rg_env_info_at(env, j, &name, &value) == RG_OK) {
            values[cols[j]] = value;
            valid[cols[j]] = 1;
        }
    }
}

size_t rg_pool_info_count(const rg_pool *p)
{
    return p ? p->n_info : 0;
}

const char *rg_pool_info_name(const rg_pool *p, size_t j)
{
    return p && j < p->n_info ? p->info_names[j] : NULL;
}
