/* Variables of a game: the set, memory binding, live values, remembered values for deltas, custom variables. */
#include "gamedata_internal.h"

#include "base/base.h"
#include "emu/addrspace.h"
#include "gamedata_types.h"

#include <stdlib.h>
#include <string.h>

int rg_gamedata_create(rg_gamedata **out)
{
    if (!out)
        return rg__error(RG_EINVAL, "rg_gamedata_create: NULL argument");
    *out = calloc(1, sizeof **out);
    if (!*out)
        return rg__error(RG_ENOMEM, "out of memory");
    return RG_OK;
}

void rg__gd_free_vars(rg__gd_var *vars, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(vars[i].name);
    free(vars);
}

void rg__gd_free_warnings(rg_gamedata *gd)
{
    rg__messages_clear(&gd->warnings);
}

void rg_gamedata_free(rg_gamedata *gd)
{
    if (!gd)
        return;
    rg__gd_free_vars(gd->vars, gd->n_vars);
    rg__gd_free_warnings(gd);
    rg_gamedata_clear_custom(gd);
    free(gd->custom);
    rg__addrspace_free(&gd->space);
    free(gd);
}

static int cmp_name(const void *key, const void *elem)
{
    return strcmp(key, ((const rg__gd_var *)elem)->name);
}

long rg__gd_index(const rg_gamedata *gd, const char *name)
{
    if (!gd->n_vars)
        return -1;
    const rg__gd_var *v = bsearch(name, gd->vars, gd->n_vars, sizeof *gd->vars, cmp_name);
    return v ? (long)(v - gd->vars) : -1;
}

unsigned long rg__gd_generation(const rg_gamedata *gd)
{
    return gd->generation;
}

const char *rg__gd_name_at(const rg_gamedata *gd, size_t i)
{
    return i < gd->n_vars ? gd->vars[i].name : NULL;
}

static int reserve_vars(rg_gamedata *gd, size_t n)
{
    return rg__reserve(&gd->vars, &gd->cap_vars, n, sizeof *gd->vars);
}

int rg_gamedata_set_variable(rg_gamedata *gd, const char *name, uint64_t address, const char *type, uint64_t mask)
{
    if (!gd || !name || !type)
        return rg__error(RG_EINVAL, "rg_gamedata_set_variable: NULL argument");
    if (!*name)
        return rg__error(RG_EINVAL, "a variable needs a name");
    if (address > INT64_MAX) /* data.json could not hold it (see gamedata_json.c) */
        return rg__error(RG_EINVAL, "variable \"%s\": the address must be at most 2^63-1", name);
    rg_datatype t;
    int rc = rg_datatype_parse(type, &t);
    if (rc != RG_OK)
        return rc;
    long at = rg__gd_index(gd, name);
    if (at >= 0) {
        rg__gd_var *v = &gd->vars[at];
        v->address = address;
        v->type = t;
        v->mask = mask;
        v->have_cur = v->have_prev = 0;
        gd->generation++;
        return RG_OK;
    }
    if ((rc = reserve_vars(gd, gd->n_vars + 1)) != RG_OK)
        return rc;
    char *copy = rg__strdup(name, &rc);
    if (!copy)
        return rc;
    size_t i = 0;
    while (i < gd->n_vars && strcmp(gd->vars[i].name, name) < 0)
        i++;
    memmove(gd->vars + i + 1, gd->vars + i, (gd->n_vars - i) * sizeof *gd->vars);
    memset(&gd->vars[i], 0, sizeof gd->vars[i]);
    gd->vars[i].name = copy;
    gd->vars[i].address = address;
    gd->vars[i].type = t;
    gd->vars[i].mask = mask;
    gd->n_vars++;
    gd->generation++;
    return RG_OK;
}

int rg__gd_append(rg_gamedata *gd, const char *name, uint64_t address, const rg_datatype *type, uint64_t mask)
{
    int rc = reserve_vars(gd, gd->n_vars + 1);
    if (rc != RG_OK)
        return rc;
    char *copy = rg__strdup(name, &rc);
    if (!copy)
        return rc;
    rg__gd_var *v = &gd->vars[gd->n_vars++];
    memset(v, 0, sizeof *v);
    v->name = copy;
    v->address = address;
    v->type = *type;
    v->mask = mask;
    return RG_OK;
}

static int cmp_vars(const void *a, const void *b)
{
    return strcmp(((const rg__gd_var *)a)->name, ((const rg__gd_var *)b)->name);
}

void rg__gd_sort(rg_gamedata *gd)
{
    if (gd->n_vars > 1)
        qsort(gd->vars, gd->n_vars, sizeof *gd->vars, cmp_vars);
    gd->generation++;
}

int rg_gamedata_remove_variable(rg_gamedata *gd, const char *name)
{
    if (!gd || !name)
        return rg__error(RG_EINVAL, "rg_gamedata_remove_variable: NULL argument");
    long at = rg__gd_index(gd, name);
    if (at < 0)
        return rg__error(RG_ENOTFOUND, "no variable named \"%s\"", name);
    free(gd->vars[at].name);
    memmove(gd->vars + at, gd->vars + at + 1, (gd->n_vars - (size_t)at - 1) * sizeof *gd->vars);
    gd->n_vars--;
    gd->generation++;
    return RG_OK;
}

size_t rg_gamedata_variable_count(const rg_gamedata *gd)
{
    return gd ? gd->n_vars : 0;
}

static void fill_variable(const rg__gd_var *v, rg_variable *out)
{
    out->name = v->name;
    out->address = v->address;
    out->type = v->type;
    out->mask = v->mask;
}

int rg_gamedata_variable_at(const rg_gamedata *gd, size_t i, rg_variable *out)
{
    if (!gd || !out)
        return rg__error(RG_EINVAL, "rg_gamedata_variable_at: NULL argument");
    if (i >= gd->n_vars)
        return rg__error(RG_ERANGE, "variable index %zu out of range (%zu variables)", i, gd->n_vars);
    fill_variable(&gd->vars[i], out);
    return RG_OK;
}

int rg_gamedata_find_variable(const rg_gamedata *gd, const char *name, rg_variable *out)
{
    if (!gd || !name || !out)
        return rg__error(RG_EINVAL, "rg_gamedata_find_variable: NULL argument");
    long at = rg__gd_index(gd, name);
    if (at < 0)
        return rg__error(RG_ENOTFOUND, "no variable named \"%s\"", name);
    fill_variable(&gd->vars[at], out);
    return RG_OK;
}

/* ---- memory ---- */

int rg_gamedata_bind_emu(rg_gamedata *gd, rg_emu *emu)
{
    if (!gd)
        return rg__error(RG_EINVAL, "rg_gamedata_bind_emu: NULL argument");
    gd->emu = emu;
    gd->bound_blocks = 0;
    return RG_OK;
}

int rg_gamedata_bind_blocks(rg_gamedata *gd, const rg_mem_block *blocks, size_t n, unsigned overlay_word)
{
    if (!gd || (!blocks && n))
        return rg__error(RG_EINVAL, "rg_gamedata_bind_blocks: NULL argument");
    int rc = rg__addrspace_from_blocks(&gd->space, blocks, n, overlay_word);
    if (rc != RG_OK) {
        gd->bound_blocks = 0;
        return rc;
    }
    gd->emu = NULL;
    gd->bound_blocks = 1;
    return RG_OK;
}

int rg_gamedata_read(const rg_gamedata *gd, uint64_t addr, void *dst, size_t len)
{
    if (!gd || (!dst && len))
        return rg__error(RG_EINVAL, "rg_gamedata_read: NULL argument");
    if (gd->emu)
        return rg_emu_mem_read(gd->emu, addr, dst, len);
    if (gd->bound_blocks)
        return rg__addrspace_read(&gd->space, addr, dst, len);
    return rg__error(RG_EMISUSE, "the game data is not bound to any memory");
}

int rg_gamedata_write(rg_gamedata *gd, uint64_t addr, const void *src, size_t len)
{
    if (!gd || (!src && len))
        return rg__error(RG_EINVAL, "rg_gamedata_write: NULL argument");
    if (gd->emu)
        return rg_emu_mem_write(gd->emu, addr, src, len);
    if (gd->bound_blocks)
        return rg__addrspace_write(&gd->space, addr, src, len);
    return rg__error(RG_EMISUSE, "the game data is not bound to any memory");
}

/* ---- values ---- */

static int read_var(const rg_gamedata *gd, const rg__gd_var *v, int64_t *value)
{
    uint8_t bytes[8];
    int rc = rg_gamedata_read(gd, v->address, bytes, v->type.width);
    if (rc != RG_OK)
        return rg__error_context(rc, "variable \"%s\"", v->name);
    *value = (int64_t)((uint64_t)rg_datatype_decode(&v->type, bytes) & v->mask);
    return RG_OK;
}

int rg__gd_value_at(const rg_gamedata *gd, size_t i, int64_t *value)
{
    return read_var(gd, &gd->vars[i], value);
}

int rg__gd_delta_at(const rg_gamedata *gd, size_t i, int64_t *delta)
{
    const rg__gd_var *v = &gd->vars[i];
    if (v->have_cur && !v->cur_ok)
        return rg__error(RG_ERANGE, "variable \"%s\": address 0x%llx is not mapped", v->name,
                         (unsigned long long)v->address);
    *delta = (v->have_cur && v->have_prev && v->prev_ok) ? (int64_t)((uint64_t)v->cur - (uint64_t)v->prev) : 0;
    return RG_OK;
}

int rg__gd_set_at(rg_gamedata *gd, size_t i, int64_t value)
{
    const rg__gd_var *v = &gd->vars[i];
    uint8_t bytes[8];
    rg_datatype_encode(&v->type, value, bytes);
    /* The write checks the whole range before it changes a byte. */
    int rc = rg_gamedata_write(gd, v->address, bytes, v->type.width);
    return rc == RG_OK ? RG_OK : rg__error_context(rc, "variable \"%s\"", v->name);
}

static long lookup(const rg_gamedata *gd, const char *name, const char *what)
{
    if (!gd || !name) {
        rg__error(RG_EINVAL, "%s: NULL argument", what);
        return -1;
    }
    long at = rg__gd_index(gd, name);
    if (at < 0)
        rg__error(RG_ENOTFOUND, "no variable named \"%s\"", name);
    return at;
}

int rg_gamedata_get(const rg_gamedata *gd, const char *name, int64_t *value)
{
    long at = lookup(gd, name, "rg_gamedata_get");
    if (at < 0)
        return gd && name ? RG_ENOTFOUND : RG_EINVAL;
    if (!value)
        return rg__error(RG_EINVAL, "rg_gamedata_get: NULL argument");
    return rg__gd_value_at(gd, (size_t)at, value);
}

int rg_gamedata_set(rg_gamedata *gd, const char *name, int64_t value)
{
    long at = lookup(gd, name, "rg_gamedata_set");
    if (at < 0)
        return gd && name ? RG_ENOTFOUND : RG_EINVAL;
    return rg__gd_set_at(gd, (size_t)at, value);
}

int rg_gamedata_delta(const rg_gamedata *gd, const char *name, int64_t *delta)
{
    long at = lookup(gd, name, "rg_gamedata_delta");
    if (at < 0)
        return gd && name ? RG_ENOTFOUND : RG_EINVAL;
    if (!delta)
        return rg__error(RG_EINVAL, "rg_gamedata_delta: NULL argument");
    return rg__gd_delta_at(gd, (size_t)at, delta);
}

int rg_gamedata_update(rg_gamedata *gd)
{
    if (!gd)
        return rg__error(RG_EINVAL, "rg_gamedata_update: NULL argument");
    if (!gd->emu && !gd->bound_blocks)
        return rg__error(RG_EMISUSE, "the game data is not bound to any memory");
    for (size_t i = 0; i < gd->n_vars; i++) {
        rg__gd_var *v = &gd->vars[i];
        v->prev = v->cur;
        v->prev_ok = v->cur_ok;
        v->have_prev = v->have_cur;
        v->cur_ok = read_var(gd, v, &v->cur) == RG_OK;
        v->have_cur = 1;
    }
    return RG_OK;
}
