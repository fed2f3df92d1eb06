/* The workers: each steps or resets the environments it owns, writing results straight into their rows. */
#define _POSIX_C_SOURCE 200809L
#include "pool_internal.h"

#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where env id's result goes: its synchronous row, or the next slot of the async ring (claimed under the lock). */
static void claim(rg_pool *p, int32_t id, rg__rows **rows, size_t *row, size_t *ring_batch)
{
    if (p->row[id] >= 0) {
        *rows = &p->sync;
        *row = (size_t)p->row[id];
        *ring_batch = SIZE_MAX;
        return;
    }
    uint64_t s = p->produced++;
    *ring_batch = (size_t)((s / p->batch) % p->ring_len);
    *rows = &p->ring[*ring_batch];
    *row = (size_t)(s % p->batch);
}

/* One job, outside the lock. Returns RG_OK or the env's error (message in this thread's rg_error_last). */
int rg__pool_run_job(rg_pool *p, int32_t id, int job, rg__rows *rows, size_t row)
{
    rg_env *env = p->envs[id];
    uint8_t *obs = rows->obs + row * p->obs_size;
    uint8_t *raw = rg__pre_target(p, id, obs);
    float *rewards = rows->rewards + row * RG_SCENARIO_MAX_PLAYERS;
    memset(rewards, 0, RG_SCENARIO_MAX_PLAYERS * sizeof *rewards);
    rows->terminated[row] = rows->truncated[row] = rows->has_final[row] = rows->failed[row] = 0;
    rows->ids[row] = id;
    int64_t *info = rows->info + row * p->n_info;
    uint8_t *valid = rows->info_valid + row * p->n_info;
    int rc;
    if (job == JOB_RESET || p->failed[id] || (p->autoreset == RG_AUTORESET_NEXT_STEP && p->ended[id])) {
        rc = rg_env_reset(env, !p->seeded[id], p->seed + (uint64_t)id, raw, p->raw_size);
        p->seeded[id] = 1;
        p->ended[id] = 0;
        p->failed[id] = 0;
        if (rc == RG_OK) {
            rg__pre_push(p, id, 1);
            rg__pre_gather(p, id, obs);
            rg__info_write(p, id, info, valid);
        }
        return rc;
    }
    rg_step_result r;
    rc = rg_env_step(env, p->actions + (size_t)id * p->act_len, p->act_len, raw, p->raw_size, &r);
    if (rc != RG_OK)
        return rc;
    rg__pre_push(p, id, 0);
    rg__pre_gather(p, id, obs);
    memcpy(rewards, r.rewards, sizeof r.rewards);
    rg__pre_clip(p, rewards);
    rows->terminated[row] = (uint8_t)r.terminated;
    rows->truncated[row] = (uint8_t)r.truncated;
    rg__info_write(p, id, info, valid);
    if (!r.terminated && !r.truncated)
        return RG_OK;
    if (p->autoreset == RG_AUTORESET_NEXT_STEP) {
        p->ended[id] = 1;
    } else if (p->autoreset == RG_AUTORESET_SAME_STEP) {
        memcpy(rows->final_obs + row * p->obs_size, obs, p->obs_size);
        memcpy(rows->final_info + row * p->n_info, info, p->n_info * sizeof *info);
        memcpy(rows->final_info_valid + row * p->n_info, valid, p->n_info);
        rows->has_final[row] = 1;
        rc = rg_env_reset(env, 0, 0, raw, p->raw_size);
        if (rc == RG_OK) {
            rg__pre_push(p, id, 1);
            rg__pre_gather(p, id, obs);
            rg__info_write(p, id, info, valid);
        }
    }
    return rc;
}

/* The queue lane takes its next job from, and whether from the tail (stolen); NULL when every queue is empty. */
static rg__queue *pick(rg_pool *p, unsigned lane, int *steal)
{
    rg__queue *own = &p->queues[lane], *best = NULL;
    *steal = 0;
    if (own->count)
        return own;
    for (unsigned w = 0; w < p->m; w++)
        if (w != lane && p->queues[w].count && (!best || p->queues[w].count > best->count))
            best = &p->queues[w];
    *steal = best != NULL;
    return best;
}

int rg__pool_run_next(rg_pool *p, unsigned lane)
{
    int steal;
    rg__queue *q = pick(p, lane, &steal);
    if (!q)
        return 0;
    int32_t id;
    if (steal) {
        id = q->ids[(q->head + q->count - 1) % p->n];
    } else {
        id = q->ids[q->head];
        q->head = (q->head + 1) % p->n;
    }
    q->count--;
    int job = p->job[id];
    rg__rows *rows;
    size_t row, ring_batch;
    claim(p, id, &rows, &row, &ring_batch);
    p->running++;
    pthread_mutex_unlock(&p->lock);
    int rc = rg__pool_run_job(p, id, job, rows, row);
    pthread_mutex_lock(&p->lock);
    p->running--;
    if (rc != RG_OK) {
        p->failed[id] = 1; /* an env that failed starts over with its next job */
        if (p->err_rc == RG_OK) {
            p->err_rc = rc;
            p->err_env = id;
            snprintf(p->err_msg, sizeof p->err_msg, "%s", rg_error_last());
        }
    }
    /* The caller waits for a whole batch: it is woken when one completes, not after every job (a wake-up costs the
     * worker a system call and the caller a trip through the scheduler). A spinning caller sees done_seq move. */
    int complete = ring_batch == SIZE_MAX ? --p->sync_left == 0 : ++p->ring_done[ring_batch] >= p->batch;
    atomic_fetch_add_explicit(&p->done_seq, 1, memory_order_release);
    if (complete)
        pthread_cond_broadcast(&p->done);
    return 1;
}

long rg__pool_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long)ts.tv_sec * 1000000000L + ts.tv_nsec;
}

void rg__pool_wait(rg_pool *p, pthread_cond_t *cond, atomic_ulong *seq, long spin_ns, long deadline_ns,
                   long *last_ns)
{
    long t0 = last_ns ? rg__pool_now_ns() : 0;
    if (spin_ns > 0 && (!last_ns || *last_ns < spin_ns)) {
        unsigned long seen = atomic_load_explicit(seq, memory_order_acquire);
        pthread_mutex_unlock(&p->lock);
        long until = rg__pool_now_ns() + spin_ns;
        int moved = 0;
        for (unsigned i = 1; !moved; i++) {
            rg__cpu_relax();
            moved = atomic_load_explicit(seq, memory_order_acquire) != seen;
            if ((i & 255) == 0 && rg__pool_now_ns() > until)
                break;
        }
        pthread_mutex_lock(&p->lock);
        /* seq only moves under the lock: checked here, no wake-up between the spin and the wait is lost */
        if (moved || atomic_load_explicit(seq, memory_order_acquire) != seen) {
            if (last_ns)
                *last_ns = rg__pool_now_ns() - t0;
            return; /* the caller re-checks its condition */
        }
    }
    if (deadline_ns) {
        struct timespec ts = {(time_t)(deadline_ns / 1000000000L), deadline_ns % 1000000000L};
        pthread_cond_timedwait(cond, &p->lock, &ts);
    } else {
        pthread_cond_wait(cond, &p->lock);
    }
    if (last_ns)
        *last_ns = rg__pool_now_ns() - t0;
}

void rg__pool_wake(rg_pool *p)
{
    atomic_fetch_add_explicit(&p->work_seq, 1, memory_order_release);
    pthread_cond_broadcast(&p->work);
}

void *rg__pool_worker(void *arg)
{
    rg__worker_arg *wa = arg;
    rg_pool *p = wa->pool;
    unsigned lane = wa->index;
    free(wa);
    long last_wait = 0; /* this thread's last wait for work (rg__pool_wait: it spins only after short ones) */
    pthread_mutex_lock(&p->lock);
    while (!p->stop)
        if (!rg__pool_run_next(p, lane))
            rg__pool_wait(p, &p->work, &p->work_seq, p->spin_ns, 0, &last_wait);
    pthread_mutex_unlock(&p->lock);
    return NULL;
}
