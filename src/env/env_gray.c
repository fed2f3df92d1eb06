/* Gray observations written straight from the core's frame (env_maxpool.h, rg__env_write_step_obs): a pool that
 * converts to gray asks its envs for them, so that a step makes no RGB24 frame, and max-pools two gray planes
 * (the maximum of two grays is the gray of the brighter pixel: the bytes of Gymnasium's AtariPreprocessing). The gray
 * is ALE's, (299 R + 587 G + 114 B + 500) / 1000 (base/luma.h), the pool's grayscale of an RGB24 frame. */
#include "env_internal.h"
#include "env_maxpool.h"

#include "base/luma.h"
#include "emu/emu_index.h"

#include <string.h>

static void gray_rgb24_scalar(const uint8_t *rgb, size_t n, uint8_t *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (uint8_t)((rg__luma_sum(rgb + 3 * i) + 500u) / 1000u);
}

void rg__env_obs_gray(rg_env *env, int on)
{
    if (env)
        env->obs_gray = on != 0;
}

/* The crop's rows (obs_h of obs_w pixels from column x, row y) of a frame whose rows lie `pitch` bytes apart, bpp
 * bytes a pixel, in one call when they lie back to back: through a palette-index gray table (index_gray, bpp 1), else
 * the XRGB8888 gray kernel (bpp 4). */
static void crop_gray(const rg_env *env, const uint8_t *rows, size_t pitch, size_t bpp, unsigned x, unsigned y,
                      const uint8_t *index_gray, int simd, uint8_t *dst)
{
    size_t w = env->obs_w, whole = x == 0 && pitch == w * bpp;
    size_t count = whole ? 1 : env->obs_h, len = whole ? w * env->obs_h : w;
    for (size_t r = 0; r < count; r++) {
        const uint8_t *src = rows + (size_t)(y + r) * pitch + (size_t)x * bpp;
        if (index_gray)
            rg__index_gray(src, len, index_gray, dst + r * w, simd);
        else
            rg__gray_xrgb((const uint32_t *)src, len, dst + r * w, simd);
    }
}

/* The observation as gray (obs_h x obs_w bytes): from the core's palette indices when it paints them, else from its
 * XRGB8888 frame when it covers the screen (the usual case), else through the RGB24 observation. */
static int write_gray(const rg_env *env, uint8_t *dst)
{
    const size_t n = (size_t)env->obs_h * env->obs_w;
    if (env->show_restored && rg_emu_frame_count(env->emu) == env->restored_frame) {
        gray_rgb24_scalar(env->restored_obs, n, dst);
        return RG_OK;
    }
    unsigned sw, sh;
    rg_frame f;
    int rc = rg_emu_screen_size(env->emu, &sw, &sh);
    if (rc != RG_OK)
        return rc;
    unsigned x = env->crop[0] < sw ? env->crop[0] : sw, y = env->crop[1] < sh ? env->crop[1] : sh;
    const rg__index_frame *ix = rg__emu_index_frame(env->emu, &f);
    if (ix && ix->pitch >= sw && f.height >= sh) { /* a core painting palette indices: the grays from them */
        crop_gray(env, ix->data, ix->pitch, 1, x, y, ix->gray, rg__index_simd(), dst);
        return RG_OK;
    }
    if ((rc = rg_emu_frame(env->emu, &f)) != RG_OK)
        return rc;
    if (f.data && f.format == RG_PIXEL_XRGB8888 && f.pitch / 4 >= sw && f.height >= sh && f.pitch % 4 == 0) {
        crop_gray(env, f.data, f.pitch, 4, x, y, NULL, rg__max_pool_simd(), dst);
        return RG_OK;
    }
    /* other pixel formats, or a frame smaller than the screen: the RGB24 screen, then the gray of the crop */
    if ((rc = rg_emu_screen_rgb24(env->emu, env->frame, env->frame_cap)) != RG_OK)
        return rc;
    for (unsigned r = 0; r < env->obs_h; r++)
        gray_rgb24_scalar(env->frame + ((size_t)(y + r) * sw + x) * 3, env->obs_w, dst + (size_t)r * env->obs_w);
    return RG_OK;
}

int rg__env_write_step_obs(const rg_env *env, uint8_t *dst)
{
    if (env->obs_gray && env->obs == RG_OBS_IMAGE)
        return write_gray(env, dst);
    return rg__env_write_obs(env, dst);
}
