/* The environment callback: the commands the Debian cores need (docs/formats.md, "libretro hosting").
 * Unknown commands return false, which every core tested tolerates. */
#include "lr_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void core_log(enum retro_log_level level, const char *fmt, ...)
{
    rg__lr *lr = rg__lr_current;
    if (!lr)
        return;
    rg_log_level lv = (rg_log_level)level;
    if (level > RETRO_LOG_ERROR)
        lv = RG_LOG_ERROR;
    /* mgba sends ~11 debug lines per frame: test the level before formatting anything. */
    if (!rg__log_enabled(&lr->io->log, lv))
        return;
    char prefixed[512];
    snprintf(prefixed, sizeof prefixed, "[%s] %s", lr->name, fmt);
    va_list ap;
    va_start(ap, fmt);
    rg__logv(&lr->io->log, lv, prefixed, ap);
    va_end(ap);
}

static bool set_pixel_format(rg__lr *lr, const enum retro_pixel_format *fmt)
{
    switch (*fmt) {
    case RETRO_PIXEL_FORMAT_0RGB1555:
    case RETRO_PIXEL_FORMAT_XRGB8888:
    case RETRO_PIXEL_FORMAT_RGB565:
        lr->pixel_format = *fmt;
        return true;
    default:
        return false;
    }
}

static bool set_memory_maps(rg__lr *lr, const struct retro_memory_map *map)
{
    rg__core_io *io = lr->io;
    rg__mem_desc *d = NULL;
    if (map->num_descriptors > 0) {
        d = calloc(map->num_descriptors, sizeof *d);
        if (!d)
            return false;
    }
    for (unsigned i = 0; i < map->num_descriptors; i++) {
        const struct retro_memory_descriptor *s = &map->descriptors[i];
        d[i].flags = s->flags;
        d[i].ptr = s->ptr ? (uint8_t *)s->ptr + s->offset : NULL;
        d[i].start = s->start;
        d[i].select = s->select;
        d[i].len = s->len;
    }
    free(io->mem);
    io->mem = d;
    io->n_mem = map->num_descriptors;
    io->mem_generation++;
    return true;
}

static void set_av(rg__lr *lr, const struct retro_system_timing *t)
{
    if (t->fps > 0)
        lr->io->fps = t->fps;
    if (t->sample_rate > 0)
        lr->io->sample_rate = t->sample_rate;
}

bool rg__lr_environment(unsigned cmd, void *data)
{
    rg__lr *lr = rg__lr_current;
    if (!lr)
        return false;
    /* Every command answered here reads or writes data, except these two: a NULL is refused, not dereferenced. */
    if (!data && cmd != RETRO_ENVIRONMENT_GET_INPUT_BITMASKS && cmd != RETRO_ENVIRONMENT_SHUTDOWN) {
        rg__log(&lr->io->log, RG_LOG_DEBUG, "[%s] environment command %u with no data refused", lr->name, cmd);
        return false;
    }
    switch (cmd) {
    case RETRO_ENVIRONMENT_SHUTDOWN:
        /* The core is done (a game's "quit"): it is not run again until a power-on reset loads a fresh copy. */
        rg__log(&lr->io->log, RG_LOG_WARN, "[%s] the core asked to shut down", lr->name);
        lr->shutdown = true;
        return true;
    case RETRO_ENVIRONMENT_GET_CAN_DUPE:
        *(bool *)data = true;
        return true;
    case RETRO_ENVIRONMENT_SET_PIXEL_FORMAT:
        return set_pixel_format(lr, data);
    case RETRO_ENVIRONMENT_GET_SYSTEM_DIRECTORY:
        *(const char **)data = lr->system_dir;
        return true;
    case RETRO_ENVIRONMENT_GET_SAVE_DIRECTORY:
        *(const char **)data = lr->save_dir;
        return true;
    case RETRO_ENVIRONMENT_GET_LIBRETRO_PATH:
        *(const char **)data = lr->core_path;
        return true;
    case RETRO_ENVIRONMENT_GET_LOG_INTERFACE:
        ((struct retro_log_callback *)data)->log = core_log;
        return true;
    case RETRO_ENVIRONMENT_SET_VARIABLES:
        return rg__lr_options_set_v0(&lr->options, data);
    case RETRO_ENVIRONMENT_GET_VARIABLE: {
        struct retro_variable *v = data;
        v->value = v->key ? rg__lr_options_get(&lr->options, v->key) : NULL;
        if (v->key && rg__log_enabled(&lr->io->log, RG_LOG_DEBUG))
            rg__log(&lr->io->log, RG_LOG_DEBUG, "[%s] option %s = %s", lr->name, v->key, v->value ? v->value : "(none)");
        return v->value != NULL;
    }
    case RETRO_ENVIRONMENT_GET_VARIABLE_UPDATE:
        *(bool *)data = false;
        return true;
    case RETRO_ENVIRONMENT_GET_CORE_OPTIONS_VERSION:
        return false; /* version 0: cores fall back to SET_VARIABLES */
    case RETRO_ENVIRONMENT_SET_CORE_OPTIONS:
        return rg__lr_options_set_v1(&lr->options, data);
    case RETRO_ENVIRONMENT_SET_CORE_OPTIONS_INTL:
        return rg__lr_options_set_v1(&lr->options, ((const struct retro_core_options_intl *)data)->us);
    case RETRO_ENVIRONMENT_SET_CORE_OPTIONS_V2:
        return rg__lr_options_set_v2(&lr->options, ((const struct retro_core_options_v2 *)data)->definitions);
    case RETRO_ENVIRONMENT_SET_CORE_OPTIONS_V2_INTL: {
        const struct retro_core_options_v2 *us = ((const struct retro_core_options_v2_intl *)data)->us;
        return us ? rg__lr_options_set_v2(&lr->options, us->definitions) : false;
    }
    case RETRO_ENVIRONMENT_SET_CORE_OPTIONS_DISPLAY:
    case RETRO_ENVIRONMENT_SET_PERFORMANCE_LEVEL:
    case RETRO_ENVIRONMENT_SET_INPUT_DESCRIPTORS:
    case RETRO_ENVIRONMENT_SET_CONTROLLER_INFO:
    case RETRO_ENVIRONMENT_SET_SUBSYSTEM_INFO:
    case RETRO_ENVIRONMENT_SET_SUPPORT_ACHIEVEMENTS:
    case RETRO_ENVIRONMENT_SET_SUPPORT_NO_GAME:
        return true;
    case RETRO_ENVIRONMENT_GET_INPUT_BITMASKS:
        return true;
    case RETRO_ENVIRONMENT_SET_SERIALIZATION_QUIRKS:
        lr->serialization_quirks = *(const uint64_t *)data;
        return true;
    case RETRO_ENVIRONMENT_SET_MEMORY_MAPS:
        return set_memory_maps(lr, data);
    case RETRO_ENVIRONMENT_SET_GEOMETRY:
        return true; /* the frame size is taken from every video_refresh call instead */
    case RETRO_ENVIRONMENT_SET_SYSTEM_AV_INFO:
        set_av(lr, &((const struct retro_system_av_info *)data)->timing);
        return true;
    case RETRO_ENVIRONMENT_GET_AUDIO_VIDEO_ENABLE:
        *(int *)data = (lr->io->video_enabled ? 1 : 0) | (lr->io->audio_enabled ? 2 : 0);
        return true;
    case RETRO_ENVIRONMENT_GET_FASTFORWARDING:
        *(bool *)data = false;
        return true;
    case RETRO_ENVIRONMENT_SET_MESSAGE: {
        const struct retro_message *m = data;
        rg__log(&lr->io->log, RG_LOG_INFO, "[%s] message: %s", lr->name, m->msg ? m->msg : "");
        return true;
    }
    default:
        rg__log(&lr->io->log, RG_LOG_DEBUG, "[%s] environment command %u not handled", lr->name, cmd);
        return false;
    }
}
