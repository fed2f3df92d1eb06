/* Preprocessing of observations in the workers: grayscale, area-average resize, frame stacking (a ring per env:
 * each new frame is written once, and the batch row is gathered oldest first), reward clipping. */
#include "pool_internal.h"

#include <stdlib.h>
#include <string.h>

int rg__pre_init(rg_pool *p, const rg_pool_options *o)
{
    unsigned h, w, c;
    rg_env_obs_shape(p->envs[0], &h, &w, &c);
    p->raw_size = p->obs_size; /* what an env writes */
    int image = rg_env_obs_size(p->envs[0]) == (size_t)h * w * c && c == 3;
    if ((o->grayscale || o->resize_width || o->resize_height) && !image)
        return rg__error(RG_EINVAL, "grayscale and resize apply to image observations only");
    if ((o->resize_width == 0) != (o->resize_height == 0))
        return rg__error(RG_EINVAL, "give both resize_width and resize_height, or neither");
    if (o->resize_width > 4096 || o->resize_height > 4096 || o->frame_stack > 64)
        return rg__error(RG_EINVAL, "resize at most 4096x4096 and frame_stack at most 64");
    if (!(o->reward_clip >= 0.0f))
        return rg__error(RG_EINVAL, "reward_clip must be >= 0");
    p->src_h = h, p->src_w = w, p->src_c = c;
    p->gray = o->grayscale != 0;
    p->out_h = o->resize_height ? o->resize_height : h;
    p->out_w = o->resize_width ? o->resize_width : w;
    p->out_c = p->gray ? 1 : c;
    p->stack = o->frame_stack > 1 ? o->frame_stack : 1;
    p->clip = o->reward_clip;
    p->preprocess = p->gray || o->resize_width || p->stack > 1;
    if (!p->preprocess)
        return RG_OK;
    p->frame_size = (size_t)p->out_h * p->out_w * p->out_c;
    p->obs_size = p->frame_size * p->stack;
    p->scratch = calloc(p->n, p->raw_size);
    p->frames = calloc(p->n * p->stack, p->frame_size);
    p->stack_head = calloc(p->n, sizeof *p->stack_head);
    if (!p->scratch || !p->frames || !p->stack_head)
        return rg__error(RG_ENOMEM, "out of memory for preprocessing buffers");
    return RG_OK;
}

void rg__pre_free(rg_pool *p)
{
    free(p->scratch);
    free(p->frames);
    free(p->stack_head);
}

uint8_t *rg__pre_target(rg_pool *p, int32_t id, uint8_t *row)
{
    return p->preprocess ? p->scratch + (size_t)id * p->raw_size : row;
}

/* One frame of the raw observation: grayscale and/or area-average resize into dst. */
static void convert(const rg_pool *p, const uint8_t *src, uint8_t *dst)
{
    const unsigned H = p->src_h, W = p->src_w, C = p->src_c, h = p->out_h, w = p->out_w;
    for (unsigned y = 0; y < h; y++) {
        unsigned y0 = (unsigned)((uint64_t)y * H / h), y1 = (unsigned)((uint64_t)(y + 1) * H / h);
        if (y1 <= y0)
            y1 = y0 + 1;
        for (unsigned x = 0; x < w; x++) {
            unsigned x0 = (unsigned)((uint64_t)x * W / w), x1 = (unsigned)((uint64_t)(x + 1) * W / w);
            if (x1 <= x0)
                x1 = x0 + 1;
            uint32_t sum[3] = {0, 0, 0};
            for (unsigned yy = y0; yy < y1; yy++) {
                const uint8_t *s = src + ((size_t)yy * W + x0) * C;
                for (unsigned xx = x0; xx < x1; xx++, s += C)
                    for (unsigned k = 0; k < C && k < 3; k++)
                        sum[k] += s[k];
            }
            uint32_t n = (y1 - y0) * (x1 - x0);
            uint8_t *d = dst + ((size_t)y * w + x) * p->out_c;
            if (p->gray) {
                uint32_t luma = (299 * sum[0] + 587 * sum[1] + 114 * sum[2] + 500 * n) / (1000 * n);
                d[0] = (uint8_t)(luma > 255 ? 255 : luma);
            } else {
                for (unsigned k = 0; k < p->out_c; k++)
                    d[k] = (uint8_t)((sum[k] + n / 2) / n);
            }
        }
    }
}

void rg__pre_push(rg_pool *p, int32_t id, int reset)
{
    if (!p->preprocess)
        return;
    uint8_t *ring = p->frames + (size_t)id * p->stack * p->frame_size;
    const uint8_t *raw = p->scratch + (size_t)id * p->raw_size;
    unsigned head = p->stack_head[id];
    uint8_t *slot = ring + (size_t)head * p->frame_size;
    if (p->gray || p->out_w != p->src_w || p->out_h != p->src_h)
        convert(p, raw, slot);
    else
        memcpy(slot, raw, p->frame_size);
    if (reset) /* a new episode starts with its first frame in every slot */
        for (unsigned k = 0; k < p->stack; k++)
            if (k != head)
                memcpy(ring + (size_t)k * p->frame_size, slot, p->frame_size);
    p->stack_head[id] = (head + 1) % p->stack;
}

void rg__pre_gather(const rg_pool *p, int32_t id, uint8_t *dst)
{
    if (!p->preprocess)
        return;
    const uint8_t *ring = p->frames + (size_t)id * p->stack * p->frame_size;
    unsigned head = p->stack_head[id]; /* the oldest frame */
    for (unsigned k = 0; k < p->stack; k++)
        memcpy(dst + (size_t)k * p->frame_size, ring + (size_t)((head + k) % p->stack) * p->frame_size,
               p->frame_size);
}

void rg__pre_clip(const rg_pool *p, float *rewards)
{
    if (p->clip <= 0.0f)
        return;
    for (unsigned k = 0; k < RG_SCENARIO_MAX_PLAYERS; k++)
        rewards[k] = rewards[k] > p->clip ? p->clip : rewards[k] < -p->clip ? -p->clip : rewards[k];
}

void rg_pool_obs_shape(const rg_pool *p, unsigned *stack, unsigned *height, unsigned *width, unsigned *channels)
{
    if (!p)
        return;
    if (stack)
        *stack = p->stack;
    if (height)
        *height = p->preprocess ? p->out_h : p->src_h;
    if (width)
        *width = p->preprocess ? p->out_w : p->src_w;
    if (channels)
        *channels = p->preprocess ? p->out_c : p->src_c;
}
