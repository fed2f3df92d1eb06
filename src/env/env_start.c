/* The start state as bytes (stable-retro's `env.initial_state`): read it, or replace it with a raw core state such
 * as a movie's Core.bin. */
#include "env_internal.h"

#include <stdlib.h>
#include <string.h>

int rg_env_start_state(const rg_env *env, const void **data, size_t *len)
{
    if (!env || !data || !len)
        return rg__error(RG_EINVAL, "rg_env_start_state: NULL argument");
    if (env->start_file) { /* the file's own bytes, as stable-retro's initial_state holds them */
        *data = env->start_file;
        *len = env->start_file_len;
        return RG_OK;
    }
    *data = env->start_state;
    *len = env->start_state ? env->start_len : 0;
    return RG_OK;
}

int rg_env_set_start_state_data(rg_env *env, const void *data, size_t len)
{
    if (!env || (!data && len))
        return rg__error(RG_EINVAL, "rg_env_set_start_state_data: NULL argument");
    if (len == 0)
        return rg_env_set_start_state(env, RG_STATE_NONE);
    uint8_t *copy = malloc(len);
    if (!copy)
        return rg__error(RG_ENOMEM, "out of memory");
    memcpy(copy, data, len);
    /* The core must accept it: tried on the emulator inside a snapshot of the environment, which is put back. */
    size_t size;
    int rc = rg_env_clone_size(env, &size);
    void *keep = rc == RG_OK ? malloc(size) : NULL;
    if (!keep) {
        free(copy);
        return rc != RG_OK ? rc : rg__error(RG_ENOMEM, "out of memory");
    }
    if ((rc = rg_env_clone(env, keep, size, &size)) == RG_OK) {
        rc = rg_emu_state_load(env->emu, copy, len);
        if (rc != RG_OK)
            rc = rg__error_context(rc, "the start state (%zu bytes) does not load into core %s", len,
                                   rg_emu_core_name(env->emu));
        int back = rg_env_restore(env, keep, size);
        if (rc == RG_OK)
            rc = back;
    }
    free(keep);
    if (rc != RG_OK) {
        free(copy);
        return rc;
    }
    free(env->start_state);
    free(env->start_file);
    env->start_file = NULL;
    env->start_file_len = 0;
    env->start_state = copy;
    env->start_len = len;
    return RG_OK;
}
