/* Loading a private copy of a libretro core and resolving its entry points.
 *
 * Callbacks of the libretro ABI carry no instance pointer and cores keep their machine in globals, so two instances
 * must never share one mapping of the shared object: dlopen of the same path returns the same mapping. Each instance
 * therefore copies the .so to a private temporary file, dlopens the copy and unlinks it at once (the mapping stays).
 * See docs/formats.md, "libretro hosting" for why this beats dlmopen (no namespace limit). */
#define _GNU_SOURCE
#include "lr_internal.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RESOLVE(field, symbol)                                                                         \
    do {                                                                                               \
        *(void **)(&api->field) = dlsym(api->dl, symbol);                                              \
        if (!api->field) {                                                                             \
            rc = rg__error(RG_ECORE, "%s is not a libretro core: it lacks the symbol %s", path, symbol); \
            goto fail;                                                                                 \
        }                                                                                              \
    } while (0)

static int resolve_all(rg__lr_api *api, const char *path)
{
    int rc = RG_OK;
    RESOLVE(init, "retro_init");
    RESOLVE(deinit, "retro_deinit");
    RESOLVE(api_version, "retro_api_version");
    RESOLVE(get_system_info, "retro_get_system_info");
    RESOLVE(get_system_av_info, "retro_get_system_av_info");
    RESOLVE(set_controller_port_device, "retro_set_controller_port_device");
    RESOLVE(reset, "retro_reset");
    RESOLVE(run, "retro_run");
    RESOLVE(serialize_size, "retro_serialize_size");
    RESOLVE(serialize, "retro_serialize");
    RESOLVE(unserialize, "retro_unserialize");
    RESOLVE(load_game, "retro_load_game");
    RESOLVE(unload_game, "retro_unload_game");
    RESOLVE(get_memory_data, "retro_get_memory_data");
    RESOLVE(get_memory_size, "retro_get_memory_size");
    RESOLVE(set_environment, "retro_set_environment");
    RESOLVE(set_video_refresh, "retro_set_video_refresh");
    RESOLVE(set_audio_sample, "retro_set_audio_sample");
    RESOLVE(set_audio_sample_batch, "retro_set_audio_sample_batch");
    RESOLVE(set_input_poll, "retro_set_input_poll");
    RESOLVE(set_input_state, "retro_set_input_state");
    if (api->api_version() != RETRO_API_VERSION)
        return rg__error(RG_ECORE, "%s implements libretro API version %u, not %u", path, api->api_version(),
                         RETRO_API_VERSION);
    return RG_OK;
fail:
    return rc;
}

static int dlopen_flags(void)
{
#ifdef RG_SANITIZED
    /* Sanitizer builds keep unloaded cores mapped so that leaks inside third-party cores (bsnes-mercury leaks
     * ~520 KiB per instance) can be attributed to the core's module and suppressed (tests/lsan.supp). */
    return RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE;
#else
    return RTLD_NOW | RTLD_LOCAL;
#endif
}

int rg__lr_api_load(rg__lr_api *api, const char *path, const char *dir)
{
    memset(api, 0, sizeof *api);
    /* A unique name per load: glibc reuses a loaded object whose path matches, and a reload must be fresh. */
    const char *base = strrchr(path, '/');
    char *copy = rg__asprintf("%s/XXXXXX-%s", dir, base ? base + 1 : path);
    if (!copy)
        return rg__error(RG_ENOMEM, "out of memory");
    int fd = mkstemps(copy, (int)strlen(base ? base + 1 : path) + 1);
    if (fd < 0) {
        free(copy);
        return rg__error(RG_EIO, "cannot create a private copy of the core in %s", dir);
    }
    close(fd);
    int rc = rg__copy_file(path, copy);
    if (rc != RG_OK) {
        unlink(copy);
        free(copy);
        return rg__error_context(rc, "cannot make a private copy of the core");
    }
    api->dl = dlopen(copy, dlopen_flags());
    unlink(copy);
    free(copy);
    if (!api->dl) {
        const char *why = dlerror();
        return rg__error(RG_ECORE, "cannot load core %s: %s", path, why ? why : "unknown dlopen failure");
    }
    rc = resolve_all(api, path);
    if (rc != RG_OK) {
        dlclose(api->dl);
        memset(api, 0, sizeof *api);
    }
    return rc;
}

void rg__lr_api_unload(rg__lr_api *api)
{
    if (api->dl)
        dlclose(api->dl);
    memset(api, 0, sizeof *api);
}

int rg__lr_api_probe(const char *path, struct retro_system_info *info, void **dl)
{
    *dl = dlopen(path, dlopen_flags());
    if (!*dl) {
        const char *why = dlerror();
        return rg__error(RG_ECORE, "cannot load core %s: %s", path, why ? why : "unknown dlopen failure");
    }
    void (*get_info)(struct retro_system_info *);
    unsigned (*version)(void);
    *(void **)(&get_info) = dlsym(*dl, "retro_get_system_info");
    *(void **)(&version) = dlsym(*dl, "retro_api_version");
    if (!get_info || !version || version() != RETRO_API_VERSION) {
        dlclose(*dl);
        *dl = NULL;
        return rg__error(RG_ECORE, "%s is not a libretro core of API version %u", path, RETRO_API_VERSION);
    }
    memset(info, 0, sizeof *info);
    get_info(info);
    return RG_OK;
}
