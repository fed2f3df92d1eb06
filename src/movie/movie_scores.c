/* retrogym.txt: the rewards and done a recording environment saw, stored beside a movie's entries (stable-retro and
 * our movie reader ignore entries they do not know); read back through the movie layer's bounded .bk2 entry reader
 * (rg__bk2_read_extra). Text, one "key value" line per fact, then one line per frame that had a reward or done:
 * "<frame> <reward of each player> <done 0|1>". Frames not listed had no reward and were not done. Example:
 *
 *   retrogym-scores 1
 *   core nestopia
 *   players 1
 *   first 0
 *   frames 1235
 *   611 10 0
 *   1234 0 1
 */
#include "movie_internal.h"
#include "movie_save.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ENTRY RG__SCORES_ENTRY
#define MAGIC "retrogym-scores 1"
#define MAX_ENTRY ((size_t)64 << 20)

struct rg_movie_scores {
    char *core;
    unsigned players;
    uint64_t first, frames;
    rg__score *scores;
    size_t n, cap;
};

/* ---- writing ---- */

char *rg__scores_text(const char *core, unsigned players, uint64_t first, uint64_t frames, const rg__score *scores,
                      size_t n)
{
    /* A line: a 20-digit frame, up to RG_SCENARIO_MAX_PLAYERS rewards of at most 16 characters, the flag. */
    size_t cap = 256 + (core ? strlen(core) : 0) + n * (24 + RG_SCENARIO_MAX_PLAYERS * 18 + 4);
    char *text = malloc(cap);
    if (!text)
        return NULL;
    size_t len = (size_t)snprintf(text, cap, MAGIC "\ncore %s\nplayers %u\nfirst %llu\nframes %llu\n",
                                  core ? core : "", players, (unsigned long long)first, (unsigned long long)frames);
    for (size_t i = 0; i < n && len < cap; i++) {
        len += (size_t)snprintf(text + len, cap - len, "%llu", (unsigned long long)scores[i].frame);
        for (unsigned p = 0; p < players && len < cap; p++) /* %.9g: a float32 reads back exactly */
            len += (size_t)snprintf(text + len, cap - len, " %.9g", (double)scores[i].rewards[p]);
        if (len < cap)
            len += (size_t)snprintf(text + len, cap - len, " %d\n", scores[i].done ? 1 : 0);
    }
    if (len >= cap) { /* cannot happen with the bound above; refuse rather than truncate */
        free(text);
        return NULL;
    }
    return text;
}

/* ---- reading ---- */

static int parse_u64(const char *s, char **end, uint64_t *v)
{
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    unsigned long long x = strtoull(s, end, 10);
    if (errno)
        return -1;
    *v = x;
    return 0;
}

static int bad_line(const char *path, size_t line, const char *why)
{
    return rg__error(RG_ECORRUPT, "%s: " ENTRY " line %zu: %s", path, line, why);
}

/* One frame line: "<frame> <reward>... <0|1>". */
static int parse_score(rg_movie_scores *s, char *line, const char *path, size_t number)
{
    rg__score sc;
    memset(&sc, 0, sizeof sc);
    char *p = line, *end;
    if (parse_u64(p, &end, &sc.frame) != 0)
        return bad_line(path, number, "not a frame number");
    if (sc.frame < s->first || sc.frame >= s->frames || (s->n && sc.frame <= s->scores[s->n - 1].frame))
        return bad_line(path, number, "frame out of order or outside first .. frames - 1");
    for (unsigned i = 0; i < s->players; i++) {
        p = end;
        if (*p != ' ')
            return bad_line(path, number, "too few rewards");
        sc.rewards[i] = strtof(p + 1, &end);
        if (end == p + 1)
            return bad_line(path, number, "a reward is not a number");
    }
    if (strcmp(end, " 0") != 0 && strcmp(end, " 1") != 0)
        return bad_line(path, number, "the line must end with the done flag 0 or 1");
    sc.done = end[1] == '1';
    int rc = rg__reserve(&s->scores, &s->cap, s->n + 1, sizeof *s->scores);
    if (rc != RG_OK)
        return rc;
    s->scores[s->n++] = sc;
    return RG_OK;
}

static int parse(rg_movie_scores *s, char *text, const char *path)
{
    size_t number = 0;
    int have_players = 0, have_frames = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        number++;
        if (number == 1) {
            if (strcmp(line, MAGIC) != 0)
                return bad_line(path, 1, "not \"" MAGIC "\" (written by a newer retrogym?)");
            continue;
        }
        if (*line >= '0' && *line <= '9') {
            if (!have_players || !have_frames)
                return bad_line(path, number, "a frame before the players and frames lines");
            int rc = parse_score(s, line, path, number);
            if (rc != RG_OK)
                return rc;
            continue;
        }
        char *sp = strchr(line, ' ');
        if (!sp)
            return bad_line(path, number, "neither \"key value\" nor a frame");
        *sp = '\0';
        const char *value = sp + 1;
        char *end;
        uint64_t v = 0;
        if (strcmp(line, "core") == 0) {
            free(s->core);
            int rc = RG_OK;
            if (!(s->core = rg__strdup(value, &rc)))
                return rc;
        } else if (strcmp(line, "players") == 0 || strcmp(line, "first") == 0 || strcmp(line, "frames") == 0) {
            if (s->n || parse_u64(value, &end, &v) != 0 || *end)
                return bad_line(path, number, "a number is expected, before the frames");
            if (line[0] == 'p') {
                if (v < 1 || v > RG_SCENARIO_MAX_PLAYERS)
                    return bad_line(path, number, "players out of range");
                s->players = (unsigned)v;
                have_players = 1;
            } else if (line[1] == 'i') {
                s->first = v;
            } else {
                s->frames = v;
                have_frames = 1;
            }
        } /* other keys: left for later versions */
    }
    if (number == 0)
        return bad_line(path, 1, "empty");
    if (!have_players || !have_frames)
        return rg__error(RG_ECORRUPT, "%s: " ENTRY " lacks its players or frames line", path);
    if (s->first > s->frames)
        return rg__error(RG_ECORRUPT, "%s: " ENTRY ": first frame %llu after the end %llu", path,
                         (unsigned long long)s->first, (unsigned long long)s->frames);
    return RG_OK;
}

int rg_movie_scores_read(rg_movie_scores **out, const char *movie_path)
{
    if (!out || !movie_path)
        return rg__error(RG_EINVAL, "rg_movie_scores_read: NULL argument");
    *out = NULL;
    char *text = NULL;
    size_t size = 0;
    int rc = rg__bk2_read_extra(movie_path, ENTRY, "recorded rewards", MAX_ENTRY, &text, &size);
    if (rc != RG_OK)
        return rc;
    rg_movie_scores *s = calloc(1, sizeof *s);
    if (!s) {
        free(text);
        return rg__error(RG_ENOMEM, "out of memory");
    }
    if (memchr(text, '\0', size))
        rc = rg__error(RG_ECORRUPT, "%s: " ENTRY " holds NUL bytes", movie_path);
    else
        rc = parse(s, text, movie_path);
    free(text);
    if (rc == RG_OK && !s->core)
        s->core = rg__strdup("", &rc);
    if (rc != RG_OK) {
        rg_movie_scores_free(s);
        return rc;
    }
    *out = s;
    return RG_OK;
}

void rg_movie_scores_free(rg_movie_scores *s)
{
    if (!s)
        return;
    free(s->core);
    free(s->scores);
    free(s);
}

unsigned rg_movie_scores_players(const rg_movie_scores *s)
{
    return s ? s->players : 0;
}

uint64_t rg_movie_scores_first(const rg_movie_scores *s)
{
    return s ? s->first : 0;
}

uint64_t rg_movie_scores_frames(const rg_movie_scores *s)
{
    return s ? s->frames : 0;
}

const char *rg_movie_scores_core(const rg_movie_scores *s)
{
    return s ? s->core : NULL;
}

int rg_movie_scores_at(const rg_movie_scores *s, uint64_t frame, float *rewards, int *done)
{
    if (!s || !rewards || !done)
        return rg__error(RG_EINVAL, "rg_movie_scores_at: NULL argument");
    if (frame < s->first || frame >= s->frames)
        return rg__error(RG_ERANGE, "frame %llu has no recorded reward (frames %llu .. %llu)",
                         (unsigned long long)frame, (unsigned long long)s->first,
                         (unsigned long long)(s->frames ? s->frames - 1 : 0));
    size_t lo = 0, hi = s->n; /* binary search for the frame */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->scores[mid].frame < frame)
            lo = mid + 1;
        else
            hi = mid;
    }
    int hit = lo < s->n && s->scores[lo].frame == frame;
    for (unsigned p = 0; p < s->players; p++)
        rewards[p] = hit ? s->scores[lo].rewards[p] : 0.0f;
    *done = hit && s->scores[lo].done;
    return RG_OK;
}
