/* Observations: the screen (cropped as the scenario says, Gym Retro's get_screen rules) or the RAM blocks. */
#include "env_internal.h"

#include <string.h>

/* Gym Retro's crop: w == 0 or x + w past the edge means "to the edge"; same for the height. */
static void crop_box(const unsigned crop[4], unsigned width, unsigned height, unsigned *x, unsigned *y,
                     unsigned *w, unsigned *h)
{
    *x = crop[0] < width ? crop[0] : width;
    *y = crop[1] < height ? crop[1] : height;
    unsigned right = (crop[2] == 0 || crop[0] + crop[2] > width) ? width : crop[0] + crop[2];
    unsigned bottom = (crop[3] == 0 || crop[1] + crop[3] > height) ? height : crop[1] + crop[3];
    *w = right > *x ? right - *x : 0;
    *h = bottom > *y ? bottom - *y : 0;
}

void rg__env_obs_geometry(const unsigned crop[4], unsigned width, unsigned height, unsigned *w, unsigned *h)
{
    unsigned x, y;
    crop_box(crop, width, height, &x, &y, w, h);
}

int rg__env_write_obs(const rg_env *env, uint8_t *dst)
{
    if (env->obs == RG_OBS_RAM)
        return rg_emu_ram_copy(env->emu, dst, env->obs_size);
    if (env->show_restored && rg_emu_frame_count(env->emu) == env->restored_frame) {
        memcpy(dst, env->restored_obs, env->obs_size);
        return RG_OK;
    }
    unsigned sw, sh, x, y, w, h;
    int rc = rg_emu_screen_size(env->emu, &sw, &sh);
    if (rc != RG_OK)
        return rc;
    crop_box(env->crop, sw, sh, &x, &y, &w, &h);
    if (x == 0 && y == 0 && w == sw && h == sh) /* the usual case: straight into the caller's */
        return rg_emu_screen_rgb24(env->emu, dst, env->obs_size);
    if ((rc = rg_emu_screen_rgb24(env->emu, env->frame, env->frame_cap)) != RG_OK)
        return rc;
    for (unsigned r = 0; r < h; r++)
        memcpy(dst + (size_t)r * w * 3, env->frame + ((size_t)(y + r) * sw + x) * 3, (size_t)w * 3);
    return RG_OK;
}

int rg_env_observe(const rg_env *env, uint8_t *obs, size_t cap)
{
    if (!env || !obs)
        return rg__error(RG_EINVAL, "rg_env_observe: NULL argument");
    if (cap < env->obs_size)
        return rg__error(RG_EBUFFER, "observation buffer of %zu bytes, %zu needed", cap, env->obs_size);
    return rg__env_write_obs(env, obs);
}

void rg_env_obs_shape(const rg_env *env, unsigned *height, unsigned *width, unsigned *channels)
{
    if (!env)
        return;
    if (height)
        *height = env->obs == RG_OBS_RAM ? (unsigned)env->obs_size : env->obs_h;
    if (width)
        *width = env->obs == RG_OBS_RAM ? 1 : env->obs_w;
    if (channels)
        *channels = env->obs == RG_OBS_RAM ? 1 : 3;
}

size_t rg_env_obs_size(const rg_env *env)
{
    return env ? env->obs_size : 0;
}
