/* Preprocessing of observations in the workers: grayscale and resize (the bytes of Gymnasium's AtariPreprocessing:
 * pool_preproc.h), frame stacking (a ring per env: each new frame is written once, and the batch row is gathered
 * oldest first), reward clipping. With grayscale on, the envs write gray planes straight from the core's frame and
 * max-pool the two grays (env/env_maxpool.h), as AtariPreprocessing does; the pool then only resizes. */
#include "pool_internal.h"
#include "pool_preproc.h"

#include "env/env_maxpool.h"

#include <stdlib.h>
#include <string.h>

struct rg__pre_ctx {
    rg__area_plan plan;
    int simd;         /* the AVX2 kernels (rg__pre_simd) */
    uint8_t *scratch; /* n x stride: each env's scratch for a frame */
    size_t stride;
};

int rg__pre_init(rg_pool *p, const rg_pool_options *o)
{
    unsigned h, w, c;
    rg_env_obs_shape(p->envs[0], &h, &w, &c);
    p->raw_size = p->obs_size; /* what an env writes */
    int image = rg_env_obs_size(p->envs[0]) == (size_t)h * w * c && c == 3;
    if ((o->grayscale || o->resize_width || o->resize_height) && !image)
        return rg__error(RG_EINVAL, "grayscale and resize apply to image observations only");
    /* the limits of resize, frame_stack and reward_clip: checked with the other options (pool.c, check_options) */
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
    if (p->gray || o->resize_width) {
        if (!(p->pre_ctx = calloc(1, sizeof *p->pre_ctx)))
            return rg__error(RG_ENOMEM, "out of memory for preprocessing buffers");
        int rc = rg__area_plan_init(&p->pre_ctx->plan, h, w, p->out_h, p->out_w, p->gray);
        if (rc != RG_OK)
            return rc;
        p->pre_ctx->simd = rg__pre_simd();
        p->pre_ctx->stride = (p->pre_ctx->plan.scratch + 63) & ~(size_t)63;
        if (!(p->pre_ctx->scratch = aligned_alloc(64, p->n * p->pre_ctx->stride)))
            return rg__error(RG_ENOMEM, "out of memory for preprocessing buffers");
        memset(p->pre_ctx->scratch, 0, p->n * p->pre_ctx->stride); /* the kernels read past a row's end, unused */
        /* With gray on, the envs write gray planes (no RGB24 frame) and max-pool them. RG_POOL_RGB_FRAMES=1 (read
         * here, for benchmarks: bench/bench_preproc.c) keeps the way before: RGB24 frames max-pooled by gray, then
         * converted; the same bytes. */
        const char *rgb_env = getenv("RG_POOL_RGB_FRAMES");
        int planes = p->gray && !(rgb_env && strcmp(rgb_env, "0") != 0);
        p->pre_ctx->plan.src_gray = planes;
        for (size_t i = 0; i < p->n; i++) {
            rg__env_obs_gray(p->envs[i], planes);
            rg__env_max_pool_luma(p->envs[i], p->gray && !planes);
        }
    }
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
    if (p->pre_ctx) {
        rg__area_plan_free(&p->pre_ctx->plan);
        free(p->pre_ctx->scratch);
        free(p->pre_ctx);
    }
}

uint8_t *rg__pre_target(rg_pool *p, int32_t id, uint8_t *row)
{
    return p->preprocess ? p->scratch + (size_t)id * p->raw_size : row;
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
        rg__area_frame(&p->pre_ctx->plan, raw, slot, p->pre_ctx->scratch + (size_t)id * p->pre_ctx->stride,
                       p->pre_ctx->simd);
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
