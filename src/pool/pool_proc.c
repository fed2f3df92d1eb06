/* Process isolation (RG_POOL_PROCESSES): the pool's environments, created in the calling process, are stepped by
 * forked worker processes; worker w owns environments w, w + m, w + 2m, ... Everything a worker writes (the result
 * rows, each env's job, row and flags) is in anonymous shared mappings made before the fork; everything else a
 * worker has is its own copy of the calling process at the fork (the envs, preprocessing rings).
 *
 * Hand-over: the caller writes an env's action and row, then its job byte (release), bumps the worker's `cmd` and
 * wakes it with a futex if it sleeps. A worker scans its envs for jobs, runs each (rg__pool_run_job), sets the row's
 * done byte, clears the job byte, and wakes the caller (a futex on `done_seq`) when the call's last row may be in.
 * The caller's truth is the done bytes (idempotent: a job run again after a crash writes the same row); the counters
 * only decide when to wake.
 *
 * Watchdog: while it waits, the caller reaps dead workers (waitpid) and kills one whose job has run longer than
 * worker_timeout_ms (each worker publishes when its running job started). A lost worker's envs are marked lost, its unfinished jobs stay queued (a claimed ring slot is
 * kept for its job), and a new worker is forked from the calling process: its copies of those envs are as they were
 * created. Each lost env's next job gives a failed row (pool.h) instead of running. */
#define _GNU_SOURCE
#include "pool_internal.h"

#include <errno.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RG__LOG_RING 16384        /* bytes of log messages a worker can hold until the caller forwards them */
#define RG__LOG_MAX 1000          /* longest message forwarded (longer ones are cut) */
#define RG__SLICE_NS 5000000L     /* a waiting caller looks at its workers at least this often */
#define RG__WORKER_SLEEP_NS 500000000L /* a sleeping worker checks that its caller's process is alive */
#define RG__PROC_SPIN_NS 50000L   /* spin before sleeping (when CPUs allow) */
#define RG__WHY 256               /* a failure's message */

/* A worker's control block (shared). */
typedef struct rg__wctl {
    _Alignas(64) atomic_uint cmd;      /* bumped by the caller after posting jobs (a futex word) */
    atomic_uint sleeping;              /* the worker sleeps on cmd */
    _Alignas(64) atomic_llong started_ns; /* when the running job started (CLOCK_MONOTONIC; 0: none runs) */
    atomic_int cur_id;                 /* the env whose job runs (-1: none) */
    atomic_llong cur_slot;             /* the ring slot that job claimed (-1: none) */
    atomic_int err_rc;                 /* the first env error since the caller took the last one (0: none) */
    int err_env;
    char err_msg[512];
    _Alignas(64) atomic_uint log_head; /* written by the worker */
    _Alignas(64) atomic_uint log_tail; /* read by the caller */
    atomic_uint log_dropped;
    char log[RG__LOG_RING];
} rg__wctl;

/* The pool-wide shared block. */
typedef struct rg__shared {
    _Alignas(64) atomic_uint done_seq; /* bumped after a job that may complete the call (a futex word) */
    atomic_uint waiting;               /* the caller sleeps on done_seq */
    _Alignas(64) atomic_llong left;    /* synchronous rows not written yet (a hint) */
    atomic_ullong produced;            /* ring slots claimed */
    atomic_int stop;
    uint64_t seed;                     /* the pool's seed, as of the last post */
} rg__shared;

struct rg__proc {
    unsigned m, self;                  /* workers; in a worker, its own index */
    long spin_ns, caller_spin_ns;
    pid_t parent;
    rg__shared *sh;
    rg__wctl *w;
    atomic_uint *ring_fill;            /* rows written per ring batch (a hint; shared) */
    pid_t *pid;                        /* per worker; 0: not running */
    uint8_t *posted;                   /* per worker: rg__proc_post gave it jobs (scratch) */
    long checked_ns;                   /* when the caller last looked at its workers */
    char (*why)[RG__WHY];              /* per env: its last failure */
    uint8_t *has_why;
    uint64_t respawns;
};

static void futex_wait(atomic_uint *word, unsigned expected, long timeout_ns)
{
    struct timespec ts = {(time_t)(timeout_ns / 1000000000L), timeout_ns % 1000000000L};
    syscall(SYS_futex, (unsigned *)word, FUTEX_WAIT, expected, timeout_ns > 0 ? &ts : NULL, NULL, 0);
}

static void futex_wake(atomic_uint *word)
{
    syscall(SYS_futex, (unsigned *)word, FUTEX_WAKE, 1, NULL, NULL, 0);
}

/* Tells worker w that jobs were posted (caller's side): its cmd moves, and a sleeping worker is woken. */
static void notify(rg__wctl *c)
{
    atomic_fetch_add(&c->cmd, 1);
    if (atomic_load(&c->sleeping))
        futex_wake(&c->cmd);
}

/* ---- log messages of workers: a ring per worker, forwarded by the caller ---- */

static void ring_put(rg__wctl *c, const void *src, unsigned at, unsigned len)
{
    for (unsigned k = 0; k < len; k++)
        c->log[(at + k) % RG__LOG_RING] = ((const char *)src)[k];
}

static void ring_get(const rg__wctl *c, void *dst, unsigned at, unsigned len)
{
    for (unsigned k = 0; k < len; k++)
        ((char *)dst)[k] = c->log[(at + k) % RG__LOG_RING];
}

static void tap_log(rg_log_level level, const char *message, void *user)
{
    struct rg__log_tap *t = user;
    rg_pool *p = t->pool; /* in a worker: its own copy of the pool, at the same address */
    if (!p->in_child) {
        t->fn(level, message, t->user);
        return;
    }
    rg__wctl *c = &p->proc->w[p->proc->self];
    size_t len = strlen(message);
    uint16_t n = (uint16_t)(len > RG__LOG_MAX ? RG__LOG_MAX : len);
    unsigned head = atomic_load_explicit(&c->log_head, memory_order_relaxed);
    unsigned tail = atomic_load_explicit(&c->log_tail, memory_order_acquire);
    unsigned need = 1 + 4 + 2 + n;
    if (RG__LOG_RING - (head - tail) < need) {
        atomic_fetch_add_explicit(&c->log_dropped, 1, memory_order_relaxed);
        return;
    }
    uint8_t lv = (uint8_t)level;
    ring_put(c, &lv, head, 1);
    ring_put(c, &t->id, head + 1, 4);
    ring_put(c, &n, head + 5, 2);
    ring_put(c, message, head + 7, n);
    atomic_store_explicit(&c->log_head, head + need, memory_order_release);
}

void rg__proc_tap_log(rg_pool *p, size_t i, rg_env_options *eo)
{
    if (!eo->log)
        return;
    struct rg__log_tap *t = &p->taps[i];
    t->pool = p;
    t->id = (int32_t)i;
    t->fn = eo->log;
    t->user = eo->log_user;
    eo->log = tap_log;
    eo->log_user = t;
}

/* Forwards worker w's messages to their envs' callbacks (caller's thread). */
static void drain_log(rg_pool *p, unsigned w)
{
    rg__wctl *c = &p->proc->w[w];
    unsigned tail = atomic_load_explicit(&c->log_tail, memory_order_relaxed);
    unsigned head = atomic_load_explicit(&c->log_head, memory_order_acquire);
    char msg[RG__LOG_MAX + 1];
    while (head - tail >= 7) {
        uint8_t lv;
        int32_t id;
        uint16_t n;
        ring_get(c, &lv, tail, 1);
        ring_get(c, &id, tail + 1, 4);
        ring_get(c, &n, tail + 5, 2);
        ring_get(c, msg, tail + 7, n);
        msg[n] = 0;
        tail += 7u + n;
        if (id >= 0 && (size_t)id < p->n && p->taps[id].fn)
            p->taps[id].fn((rg_log_level)lv, msg, p->taps[id].user);
    }
    atomic_store_explicit(&c->log_tail, tail, memory_order_release);
    unsigned dropped = atomic_exchange_explicit(&c->log_dropped, 0, memory_order_relaxed);
    if (dropped) {
        snprintf(msg, sizeof msg, "worker process %u: %u log messages were dropped (its ring was full)", w, dropped);
        for (size_t id = w; id < p->n; id += p->proc->m)
            if (p->taps[id].fn) {
                p->taps[id].fn(RG_LOG_WARN, msg, p->taps[id].user);
                break;
            }
    }
}

/* ---- the worker process ---- */

/* A step job of an env whose state died with its worker: one failed row, no emulation (pool.h). */
static int lost_job(rg_pool *p, int32_t id, int job, rg__rows *rows, size_t r)
{
    p->lost[id] = 0;
    if (job == JOB_RESET)
        return rg__pool_run_job(p, id, JOB_RESET, rows, r);
    if (p->autoreset == RG_AUTORESET_SAME_STEP) { /* the row is already the reset one; the final one is empty */
        int rc = rg__pool_run_job(p, id, JOB_RESET, rows, r);
        memset(rows->final_obs + r * p->obs_size, 0, p->obs_size);
        memset(rows->final_info_valid + r * p->n_info, 0, p->n_info);
        rows->has_final[r] = 1;
        rows->truncated[r] = 1;
        rows->failed[r] = 1;
        return rc;
    }
    memset(rows->obs + r * p->obs_size, 0, p->obs_size);
    memset(rows->rewards + r * RG_SCENARIO_MAX_PLAYERS, 0, RG_SCENARIO_MAX_PLAYERS * sizeof *rows->rewards);
    memset(rows->info_valid + r * p->n_info, 0, p->n_info);
    rows->ids[r] = id;
    rows->terminated[r] = rows->has_final[r] = 0;
    rows->truncated[r] = 1;
    rows->failed[r] = 1;
    p->failed[id] = 1; /* its next job resets it, in every autoreset mode */
    return RG_OK;
}

static void run_one(rg_pool *p, rg__wctl *c, int32_t id, int job)
{
    struct rg__proc *pr = p->proc;
    p->seed = pr->sh->seed;
    int64_t row = p->row[id];
    rg__rows *rows;
    size_t r;
    int ring = row < 0;
    uint64_t slot = 0;
    atomic_store(&c->started_ns, rg__pool_now_ns());
    atomic_store(&c->cur_id, id);
    if (!ring) {
        rows = &p->sync;
        r = (size_t)row;
    } else {
        slot = row == -1 ? atomic_fetch_add(&pr->sh->produced, 1) : (uint64_t)(-2 - row);
        atomic_store(&c->cur_slot, (long long)slot);
        rows = &p->ring[(slot / p->batch) % p->ring_len];
        r = (size_t)(slot % p->batch);
    }
    int rc = p->lost[id] ? lost_job(p, id, job, rows, r) : rg__pool_run_job(p, id, job, rows, r);
    if (rc != RG_OK) {
        p->failed[id] = 1;
        if (atomic_load(&c->err_rc) == 0) {
            c->err_env = id;
            snprintf(c->err_msg, sizeof c->err_msg, "%s", rg_error_last());
            atomic_store(&c->err_rc, rc);
        }
    }
    __atomic_store_n(&p->steps[id], rg_env_episode_steps(p->envs[id]), __ATOMIC_RELEASE);
    __atomic_store_n(&rows->done[r], 1, __ATOMIC_RELEASE);
    __atomic_store_n(&p->job[id], 0, __ATOMIC_RELEASE);
    atomic_store(&c->cur_slot, -1);
    atomic_store(&c->cur_id, -1);
    atomic_store(&c->started_ns, 0);
    int complete = ring ? atomic_fetch_add(&pr->ring_fill[(slot / p->batch) % p->ring_len], 1) + 1 >= p->batch
                        : atomic_fetch_sub(&pr->sh->left, 1) <= 1;
    if (complete) {
        atomic_fetch_add(&pr->sh->done_seq, 1);
        if (atomic_load(&pr->sh->waiting))
            futex_wake(&pr->sh->done_seq);
    }
}

static void wait_for_work(struct rg__proc *pr, rg__wctl *c, unsigned seen)
{
    if (pr->spin_ns) {
        long until = rg__pool_now_ns() + pr->spin_ns;
        for (unsigned i = 1;; i++) {
            if (atomic_load_explicit(&c->cmd, memory_order_acquire) != seen)
                return;
            rg__cpu_relax();
            if ((i & 255) == 0 && rg__pool_now_ns() > until)
                break;
        }
    }
    atomic_store(&c->sleeping, 1);
    while (atomic_load(&c->cmd) == seen) {
        futex_wait(&c->cmd, seen, RG__WORKER_SLEEP_NS);
        if (getppid() != pr->parent)
            _exit(0); /* the calling process is gone */
    }
    atomic_store(&c->sleeping, 0);
}

static void worker_main(rg_pool *p, unsigned w)
{
    struct rg__proc *pr = p->proc;
    p->in_child = 1;
    pr->self = w;
    /* Ctrl-C is the caller's to handle (it stops the workers); faults end this process, nothing else, at once */
    signal(SIGINT, SIG_IGN);
    int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGPIPE};
    for (size_t k = 0; k < sizeof faults / sizeof *faults; k++)
        signal(faults[k], SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    pthread_sigmask(SIG_SETMASK, &none, NULL);
    if (getppid() != pr->parent)
        _exit(0);
    rg__wctl *c = &pr->w[w];
    for (;;) {
        unsigned seen = atomic_load(&c->cmd);
        if (atomic_load(&pr->sh->stop))
            _exit(0);
        int ran = 0;
        for (size_t id = w; id < p->n; id += pr->m) {
            uint8_t job = __atomic_load_n(&p->job[id], __ATOMIC_ACQUIRE);
            if (job == JOB_STEP || job == JOB_RESET) {
                run_one(p, c, (int32_t)id, job);
                ran = 1;
            }
        }
        if (!ran)
            wait_for_work(pr, c, seen);
    }
}

/* Forks worker w (caller's side). */
static int spawn(rg_pool *p, unsigned w)
{
    struct rg__proc *pr = p->proc;
    rg__wctl *c = &pr->w[w];
    atomic_store(&c->sleeping, 0);
    atomic_store(&c->started_ns, 0);
    atomic_store(&c->cur_id, -1);
    atomic_store(&c->cur_slot, -1);
    pid_t pid = fork();
    if (pid < 0)
        return rg__error(RG_ENOMEM, "cannot start worker process %u: %s", w, strerror(errno));
    if (pid == 0) {
        worker_main(p, w);
        _exit(0);
    }
    pr->pid[w] = pid;
    return RG_OK;
}

/* ---- the caller's side ---- */

int rg__proc_start(rg_pool *p, unsigned workers)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned m = workers ? workers : (unsigned)(cpus > 0 ? cpus : 1);
    if (m > p->n)
        m = (unsigned)p->n;
    struct rg__proc *pr = calloc(1, sizeof *pr);
    if (!pr)
        return rg__error(RG_ENOMEM, "out of memory");
    p->proc = pr;
    pr->m = m;
    pr->parent = getpid();
    /* as an asynchronous threaded pool: workers spin while there are CPUs for them, the caller while one is left */
    pr->spin_ns = (long)m <= cpus ? RG__PROC_SPIN_NS : 0;
    pr->caller_spin_ns = (long)m < cpus ? pr->spin_ns : 0;
    pr->sh = rg__pool_calloc(1, sizeof *pr->sh, 1);
    pr->w = rg__pool_calloc(m, sizeof *pr->w, 1);
    pr->ring_fill = rg__pool_calloc(p->ring_len, sizeof *pr->ring_fill, 1);
    pr->pid = calloc(m, sizeof *pr->pid);
    pr->posted = calloc(m, 1);
    pr->why = calloc(p->n, sizeof *pr->why);
    pr->has_why = calloc(p->n, 1);
    if (!pr->sh || !pr->w || !pr->ring_fill || !pr->pid || !pr->posted || !pr->why || !pr->has_why)
        return rg__error(RG_ENOMEM, "out of memory for the worker processes");
    pr->sh->seed = p->seed;
    for (unsigned w = 0; w < m; w++) {
        int rc = spawn(p, w);
        if (rc != RG_OK)
            return rc;
    }
    return RG_OK;
}

/* Whether worker w has a job queued or running. */
static int has_work(const rg_pool *p, unsigned w)
{
    for (size_t id = w; id < p->n; id += p->proc->m) {
        uint8_t job = __atomic_load_n(&p->job[id], __ATOMIC_ACQUIRE);
        if (job == JOB_STEP || job == JOB_RESET)
            return 1;
    }
    return 0;
}

/* "was killed by signal 11 (Segmentation fault)", "exited with status 3", ... */
static void describe_status(int status, char *out, size_t size)
{
    if (WIFSIGNALED(status))
        snprintf(out, size, "was killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else if (WIFEXITED(status))
        snprintf(out, size, "exited with status %d", WEXITSTATUS(status));
    else
        snprintf(out, size, "ended (status 0x%x)", (unsigned)status);
}

/* Worker w is gone (reaped): its envs are lost, its unfinished jobs stay queued for the worker forked in its place. */
static int replace(rg_pool *p, unsigned w, const char *why)
{
    struct rg__proc *pr = p->proc;
    rg__wctl *c = &pr->w[w];
    pr->pid[w] = 0;
    drain_log(p, w);
    int cur = atomic_load(&c->cur_id);
    long long slot = atomic_load(&c->cur_slot);
    for (size_t id = w; id < p->n; id += pr->m) {
        uint8_t job = __atomic_load_n(&p->job[id], __ATOMIC_ACQUIRE);
        if ((job == JOB_STEP || job == JOB_RESET) && (int)id == cur) {
            /* the job it was running: finished (its row written, only its job byte not cleared), or to be run again
             * into the same row or the ring slot it had claimed */
            const uint8_t *done = NULL;
            if (p->row[id] >= 0)
                done = &p->sync.done[p->row[id]];
            else if (slot >= 0)
                done = &p->ring[((uint64_t)slot / p->batch) % p->ring_len].done[(uint64_t)slot % p->batch];
            if (done && __atomic_load_n(done, __ATOMIC_ACQUIRE))
                __atomic_store_n(&p->job[id], 0, __ATOMIC_RELEASE);
            else if (p->row[id] < 0 && slot >= 0)
                p->row[id] = -2 - (int64_t)slot;
        }
        p->lost[id] = 1;
        snprintf(pr->why[id], RG__WHY, "worker process %u %s; environment %zu was reset", w, why, id);
        pr->has_why[id] = 1;
    }
    pr->respawns++;
    int rc = spawn(p, w);
    if (rc == RG_OK && has_work(p, w))
        notify(c);
    return rc;
}

/* Reaps dead workers and kills hung ones; forks their replacements. Returns RG_OK or a fork's error. */
static int watch(rg_pool *p, long now)
{
    struct rg__proc *pr = p->proc;
    pr->checked_ns = now;
    int rc = RG_OK;
    for (unsigned w = 0; w < pr->m; w++) {
        char why[128];
        if (!pr->pid[w]) { /* a fork that failed earlier: try again */
            if (has_work(p, w) && (rc = spawn(p, w)) == RG_OK)
                notify(&pr->w[w]);
            continue;
        }
        int status;
        pid_t got = waitpid(pr->pid[w], &status, WNOHANG);
        if (got == pr->pid[w]) {
            describe_status(status, why, sizeof why);
        } else if (got < 0 && errno == ECHILD) {
            snprintf(why, sizeof why, "is gone (reaped elsewhere)");
        } else {
            long long started = atomic_load(&pr->w[w].started_ns);
            if (!p->worker_timeout_ms || !started || now - started <= (long)p->worker_timeout_ms * 1000000L)
                continue;
            kill(pr->pid[w], SIGKILL);
            waitpid(pr->pid[w], &status, 0);
            snprintf(why, sizeof why, "ran one job longer than %u ms and was killed", p->worker_timeout_ms);
        }
        int r = replace(p, w, why);
        if (rc == RG_OK)
            rc = r;
    }
    return rc;
}

int rg__proc_post(rg_pool *p, const int32_t *ids, size_t n)
{
    struct rg__proc *pr = p->proc;
    pr->sh->seed = p->seed;
    if (p->pending == PENDING_SYNC)
        atomic_store(&pr->sh->left, (long long)n);
    memset(pr->posted, !ids, pr->m); /* the workers that got jobs */
    for (size_t k = 0; ids && k < n; k++)
        pr->posted[(unsigned)ids[k] % pr->m] = 1;
    int gone = 0;
    for (unsigned w = 0; w < pr->m; w++) {
        if (pr->posted[w] && pr->pid[w])
            notify(&pr->w[w]);
        gone |= pr->posted[w] && !pr->pid[w];
    }
    return gone ? watch(p, rg__pool_now_ns()) : RG_OK; /* a worker whose fork failed: forked again there */
}

int rg__proc_done(rg_pool *p)
{
    const uint8_t *done;
    size_t count;
    if (p->pending == PENDING_SYNC) {
        done = p->sync.done;
        count = p->pending_n;
    } else {
        done = p->ring[p->pending_ring].done;
        count = p->batch;
    }
    for (size_t k = 0; k < count; k++)
        if (!__atomic_load_n(&done[k], __ATOMIC_ACQUIRE))
            return 0;
    return 1;
}

int rg__proc_wait(rg_pool *p, long deadline_ns)
{
    struct rg__proc *pr = p->proc;
    long spin_until = pr->caller_spin_ns ? rg__pool_now_ns() + pr->caller_spin_ns : 0;
    for (;;) {
        unsigned seq = atomic_load(&pr->sh->done_seq);
        if (rg__proc_done(p))
            return 1;
        long now = rg__pool_now_ns();
        if (now < spin_until) {
            for (unsigned i = 0; i < 256 && atomic_load_explicit(&pr->sh->done_seq, memory_order_acquire) == seq; i++)
                rg__cpu_relax();
            continue;
        }
        if (now - pr->checked_ns >= RG__SLICE_NS) {
            watch(p, now); /* a failed fork is tried again at the next look */
            if (rg__proc_done(p))
                return 1;
        }
        if (deadline_ns && now >= deadline_ns)
            return 0;
        long sleep = RG__SLICE_NS;
        if (deadline_ns && deadline_ns - now < sleep)
            sleep = deadline_ns - now;
        atomic_store(&pr->sh->waiting, 1);
        if (atomic_load(&pr->sh->done_seq) == seq)
            futex_wait(&pr->sh->done_seq, seq, sleep);
        atomic_store(&pr->sh->waiting, 0);
    }
}

void rg__proc_consumed(rg_pool *p, size_t ring_batch)
{
    atomic_store(&p->proc->ring_fill[ring_batch], 0);
}

void rg__proc_collect(rg_pool *p)
{
    struct rg__proc *pr = p->proc;
    for (unsigned w = 0; w < pr->m; w++) {
        drain_log(p, w);
        rg__wctl *c = &pr->w[w];
        int rc = atomic_load(&c->err_rc);
        if (rc == 0)
            continue;
        if (p->err_rc == RG_OK) {
            p->err_rc = rc;
            p->err_env = c->err_env;
            snprintf(p->err_msg, sizeof p->err_msg, "%s", c->err_msg);
        }
        atomic_store(&c->err_rc, 0);
    }
}

const char *rg__proc_failure(const rg_pool *p, size_t env)
{
    return p->proc && p->proc->has_why[env] ? p->proc->why[env] : NULL;
}

uint64_t rg__proc_respawns(const rg_pool *p)
{
    return p->proc ? p->proc->respawns : 0;
}

void rg__proc_stop(rg_pool *p)
{
    struct rg__proc *pr = p->proc;
    if (!pr)
        return;
    if (pr->sh && pr->w) {
        atomic_store(&pr->sh->stop, 1);
        for (unsigned w = 0; w < pr->m; w++) {
            notify(&pr->w[w]);
        }
        /* idle workers end at once; one in a long job gets a grace period, then is killed */
        long deadline = rg__pool_now_ns() + RG_POOL_FREE_GRACE_MS * 1000000L;
        for (unsigned w = 0; w < pr->m; w++) {
            if (!pr->pid[w])
                continue;
            int status;
            while (waitpid(pr->pid[w], &status, WNOHANG) == 0) {
                if (rg__pool_now_ns() >= deadline) {
                    kill(pr->pid[w], SIGKILL);
                    waitpid(pr->pid[w], &status, 0);
                    break;
                }
                struct timespec ms = {0, 1000000};
                nanosleep(&ms, NULL);
            }
            pr->pid[w] = 0;
        }
        for (unsigned w = 0; w < pr->m; w++)
            drain_log(p, w);
    }
    rg__pool_free_mem(pr->sh, 1);
    rg__pool_free_mem(pr->w, 1);
    rg__pool_free_mem(pr->ring_fill, 1);
    free(pr->pid);
    free(pr->posted);
    free(pr->why);
    free(pr->has_why);
    free(pr);
    p->proc = NULL;
}
