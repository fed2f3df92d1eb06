/* Max-pooling of the last two frames of a step (rg_env_options.max_pool), env_maxpool.c. */
#ifndef RG_SRC_ENV_ENV_MAXPOOL_H
#define RG_SRC_ENV_ENV_MAXPOOL_H

#include <retrogym/env.h>

#include "base/luma.h"

#include <stddef.h>
#include <stdint.h>

/* env->max_pool holds the mode: 0 off, 1 per channel (each of R, G, B its own maximum: Gymnasium's
 * AtariPreprocessing with grayscale_obs=False), RG__MAX_POOL_LUMA per pixel: the pixel of the frame whose gray
 * (pool_preproc.h's luma) is higher, so that the gray of the result is the maximum of the two grays (what
 * AtariPreprocessing computes with grayscale_obs=True; set by a pool that converts to gray). */
enum { RG__MAX_POOL_RGB = 1, RG__MAX_POOL_LUMA = 2 };

/* obs = the max-pool of obs and other (two RGB24 frames of n bytes), by env's mode. */
void rg__env_max_pool(const rg_env *env, uint8_t *obs, const uint8_t *other, size_t n);
/* A pool converting the observations to gray switches its envs' max-pool to RG__MAX_POOL_LUMA (on) or back. */
void rg__env_max_pool_luma(rg_env *env, int on);

/* The kernels, scalar (simd 0) or AVX2 (1, only where the CPU has it): the same bytes. n: bytes (a multiple of 3
 * for luma). */
void rg__max_rgb(uint8_t *dst, const uint8_t *other, size_t n, int simd);
void rg__max_luma(uint8_t *dst, const uint8_t *other, size_t n, int simd);
/* 1 where the AVX2 kernels can run on this CPU. */
int rg__max_pool_simd(void);

/* Gray observations (env_gray.c). A pool converting to gray turns obs_gray on: the observations of reset and step are
 * then obs_h x obs_w gray bytes written straight from the core's frame (no RGB24 frame), and the max-pool takes the
 * larger of two grays. Snapshots and rg_env_observe stay RGB24. */
void rg__env_obs_gray(rg_env *env, int on);
/* The observation of a reset or step: gray when obs_gray is on, else rg__env_write_obs's. */
int rg__env_write_step_obs(const rg_env *env, uint8_t *dst);
/* rg__gray_xrgb (n XRGB8888 pixels to their grays): base/luma.h. */

#endif
