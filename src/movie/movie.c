/* The movie handle: opening (format detection), the frame cursor, buttons, start state, closing. */
#define _POSIX_C_SOURCE 200809L
#include "movie_internal.h"
#include "movie_save.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define DEFAULT_MAX_FILE ((size_t)256 << 20)
#define DEFAULT_MAX_LOG ((size_t)256 << 20)
#define DEFAULT_MAX_HEADER ((size_t)1 << 20)
#define DEFAULT_MAX_STATE ((size_t)256 << 20)
#define DEFAULT_MAX_FRAMES 50000000u

rg_movie *rg__movie_new(void)
{
    rg_movie *m = calloc(1, sizeof *m);
    if (m)
        m->max_frames = DEFAULT_MAX_FRAMES;
    return m;
}

void rg_movie_free(rg_movie *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n_header; i++) {
        free(m->header[i].key);
        free(m->header[i].value);
    }
    free(m->header);
    free(m->masks);
    free(m->cmds);
    free(m->state);
    free(m->game);
    free(m->path);
    free(m);
}

int rg__movie_push_frame(rg_movie *m, const uint16_t *masks, unsigned cmds)
{
    if (m->frames >= m->max_frames)
        return rg__error(RG_ETOOBIG, "the movie has more than %llu frames", (unsigned long long)m->max_frames);
    if (rg__reserve(&m->masks, &m->cap_masks, (m->frames + 1) * m->players, sizeof *m->masks) != RG_OK ||
        rg__reserve(&m->cmds, &m->cap_cmds, m->frames + 1, sizeof *m->cmds) != RG_OK)
        return rg__error(RG_ENOMEM, "out of memory for movie frame %zu", m->frames);
    memcpy(m->masks + m->frames * m->players, masks, m->players * sizeof *masks);
    m->cmds[m->frames] = (uint8_t)cmds;
    m->frames++;
    return RG_OK;
}

int rg__movie_header_set(rg_movie *m, const char *key, size_t key_len, const char *value, size_t value_len,
                         int replace)
{
    if (!value) {
        value = "";
        value_len = 0;
    }
    char *v = malloc(value_len + 1);
    if (!v)
        return rg__error(RG_ENOMEM, "out of memory");
    memcpy(v, value, value_len);
    v[value_len] = '\0';
    if (replace) {
        for (size_t i = 0; i < m->n_header; i++) {
            if (strlen(m->header[i].key) == key_len && memcmp(m->header[i].key, key, key_len) == 0) {
                free(m->header[i].value);
                m->header[i].value = v;
                return RG_OK;
            }
        }
    }
    char *k = malloc(key_len + 1);
    if (!k || rg__reserve(&m->header, &m->cap_header, m->n_header + 1, sizeof *m->header) != RG_OK) {
        free(k);
        free(v);
        return rg__error(RG_ENOMEM, "out of memory");
    }
    memcpy(k, key, key_len);
    k[key_len] = '\0';
    m->header[m->n_header].key = k;
    m->header[m->n_header].value = v;
    m->n_header++;
    return RG_OK;
}

static void resolve_caps(const rg_movie_limits *limits, rg__movie_caps *caps)
{
    caps->file = limits && limits->max_file_size ? limits->max_file_size : DEFAULT_MAX_FILE;
    caps->log = limits && limits->max_log_size ? limits->max_log_size : DEFAULT_MAX_LOG;
    caps->header = limits && limits->max_header_size ? limits->max_header_size : DEFAULT_MAX_HEADER;
    caps->state = limits && limits->max_state_size ? limits->max_state_size : DEFAULT_MAX_STATE;
    caps->frames = limits && limits->max_frames ? limits->max_frames : DEFAULT_MAX_FRAMES;
}

static int has_suffix(const char *name, const char *suffix)
{
    size_t n = name ? strlen(name) : 0, s = strlen(suffix);
    return n >= s && strcasecmp(name + n - s, suffix) == 0;
}

/* FM2 text starts with "version" (FCEUX writes "version 3"); zip archives with a "PK" record signature. */
static int looks_fm2(const uint8_t *data, size_t size)
{
    return size >= 8 && memcmp(data, "version ", 8) == 0;
}

static int looks_zip(const uint8_t *data, size_t size)
{
    return size >= 4 && data[0] == 'P' && data[1] == 'K' &&
           ((data[2] == 3 && data[3] == 4) || (data[2] == 5 && data[3] == 6) || (data[2] == 7 && data[3] == 8));
}

int rg_movie_open_memory(rg_movie **out, const void *data, size_t size, const char *name,
                         const rg_movie_limits *limits)
{
    if (!out)
        return rg__error(RG_EINVAL, "rg_movie_open_memory: NULL output");
    *out = NULL;
    if (!data && size)
        return rg__error(RG_EINVAL, "rg_movie_open_memory: NULL data");
    if (limits && (limits->version < RG_MOVIE_LIMITS_VERSION_OLDEST || limits->version > RG_MOVIE_LIMITS_VERSION))
        return rg__error(RG_EINVAL, "rg_movie_limits.version is %u; this library accepts %d..%d (start from "
                         "RG_MOVIE_LIMITS_INIT or rg_movie_limits_init)", limits->version,
                         RG_MOVIE_LIMITS_VERSION_OLDEST, RG_MOVIE_LIMITS_VERSION);
    const char *label = name ? name : "movie";
    rg__movie_caps caps;
    resolve_caps(limits, &caps);
    if (size == 0)
        return rg__error(RG_ECORRUPT, "%s is empty: not a movie", label);
    if (size > caps.file)
        return rg__error(RG_ETOOBIG, "%s is %zu bytes, over the limit of %zu", label, size, caps.file);
    rg_movie *m = rg__movie_new();
    if (!m)
        return rg__error(RG_ENOMEM, "out of memory");
    m->max_frames = caps.frames;
    int rc;
    if (looks_zip(data, size)) {
        m->format = RG_MOVIE_BK2;
        rc = rg__bk2_read(m, data, size, label, &caps);
    } else if (looks_fm2(data, size)) {
        m->format = RG_MOVIE_FM2;
        rc = size > caps.log ? rg__error(RG_ETOOBIG, "%s is %zu bytes, over the text limit of %zu", label, size,
                                         caps.log)
                             : rg__fm2_read(m, data, size, label);
    } else if (has_suffix(name, ".fm2")) {
        rc = rg__error(RG_ECORRUPT, "%s is not an FCEUX movie: it does not start with 'version 3'", label);
    } else {
        rc = rg__error(RG_ECORRUPT, "%s is neither a BK2 movie (a zip archive) nor an FM2 movie", label);
    }
    if (rc != RG_OK) {
        rg_movie_free(m);
        return rc;
    }
    *out = m;
    return RG_OK;
}

int rg_movie_open_read_limits(rg_movie **out, const char *path, const rg_movie_limits *limits)
{
    if (!out || !path)
        return rg__error(RG_EINVAL, "rg_movie_open_read: NULL argument");
    *out = NULL;
    rg__movie_caps caps;
    resolve_caps(limits, &caps);
    uint8_t *data;
    size_t size;
    int rc = rg__read_file(path, caps.file, &data, &size);
    if (rc != RG_OK)
        return rc;
    rc = rg_movie_open_memory(out, data, size, path, limits);
    free(data);
    return rc;
}

int rg_movie_open_read(rg_movie **out, const char *path)
{
    return rg_movie_open_read_limits(out, path, NULL);
}

/* The header lines stable-retro writes, kept current so rg_movie_header answers for movies being written. */
static int write_header_lines(rg_movie *m)
{
    static const char *const fixed[][2] = {{"MovieVersion", "Retro"}, {"Author", "?"},   {"emuVersion", "?"},
                                           {"Platform", ""},          {"GameName", ""},  {"SHA1", "?"},
                                           {"Core", "?"},             {"rerecordCount", "1"}};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        const char *v = fixed[i][1];
        if (strcmp(fixed[i][0], "Platform") == 0)
            v = m->sys ? rg__movie_platform_code(m->sys) : "";
        else if (strcmp(fixed[i][0], "GameName") == 0)
            v = m->game;
        int rc = rg__movie_header_set(m, fixed[i][0], strlen(fixed[i][0]), v, strlen(v), 1);
        if (rc != RG_OK)
            return rc;
    }
    return RG_OK;
}

static int check_game(const char *game)
{
    if (game && strpbrk(game, "\r\n"))
        return rg__error(RG_EINVAL, "a movie's game name cannot hold a line break");
    return RG_OK;
}

int rg_movie_configure(rg_movie *m, const char *system, const char *game)
{
    if (!m || !system)
        return rg__error(RG_EINVAL, "rg_movie_configure: NULL argument");
    if (!m->writing || m->closed)
        return rg__error(RG_EMISUSE, "rg_movie_configure: the movie is not open for writing");
    if (m->frames > 0)
        return rg__error(RG_EMISUSE, "rg_movie_configure: frames are already recorded");
    const rg_system_info *sys;
    int rc = rg_system_find(&sys, system);
    if (rc != RG_OK)
        return rc;
    if ((rc = check_game(game)) != RG_OK)
        return rc;
    char *g = rg__strdup(game ? game : "", &rc);
    if (!g)
        return rc;
    free(m->game);
    m->game = g;
    m->sys = sys;
    return write_header_lines(m);
}

int rg_movie_open_write(rg_movie **out, const char *path, const char *system, const char *game, unsigned players)
{
    if (!out || !path || !*path)
        return rg__error(RG_EINVAL, "rg_movie_open_write: NULL or empty argument");
    *out = NULL;
    if (players < 1 || players > RG_MOVIE_MAX_PLAYERS)
        return rg__error(RG_EINVAL, "a movie has 1 to %d players, not %u", RG_MOVIE_MAX_PLAYERS, players);
    int rc = check_game(game);
    if (rc != RG_OK)
        return rc;
    const rg_system_info *sys = NULL;
    if (system && (rc = rg_system_find(&sys, system)) != RG_OK)
        return rc;
    /* The folder must exist now, so a typo fails here rather than after a whole episode. */
    char *dir = rg__strdup(path, &rc);
    if (!dir)
        return rc;
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[slash == dir ? 1 : 0] = '\0';
    struct stat st;
    errno = 0;
    int ok = !slash || (stat(dir, &st) == 0 && S_ISDIR(st.st_mode));
    int e = errno;
    if (!ok) {
        rc = rg__error(RG_ENOTFOUND, "cannot write a movie into %s: %s", dir, e ? strerror(e) : "not a folder");
        free(dir);
        return rc;
    }
    free(dir);
    rg_movie *m = rg__movie_new();
    if (!m)
        return rg__error(RG_ENOMEM, "out of memory");
    m->writing = 1;
    m->format = RG_MOVIE_BK2;
    m->players = players;
    m->sys = sys;
    m->path = rg__strdup(path, &rc);
    m->game = rg__strdup(game ? game : "", &rc);
    if (rc == RG_OK)
        rc = write_header_lines(m);
    if (rc != RG_OK) {
        rg_movie_free(m);
        return rc;
    }
    *out = m;
    return RG_OK;
}

int rg_movie_save(const rg_movie *m, const char *path)
{
    return rg__movie_save_with(m, path, NULL, NULL);
}

int rg__movie_save_with(const rg_movie *m, const char *path, const char *entry, const char *text)
{
    if (!m || !path || !*path)
        return rg__error(RG_EINVAL, "rg_movie_save: NULL or empty argument");
    if (!m->sys)
        return rg__error(RG_EMISUSE, "the movie has no system yet (rg_movie_configure)");
    uint8_t *zip;
    size_t size;
    int rc = rg__bk2_zip_extra(m, entry, text, &zip, &size);
    if (rc != RG_OK)
        return rc;
    rc = rg__write_file_atomic(path, zip, size);
    free(zip);
    return rc;
}

int rg_movie_close(rg_movie *m)
{
    if (!m)
        return rg__error(RG_EINVAL, "rg_movie_close: NULL movie");
    if (m->closed)
        return RG_OK;
    if (m->writing) {
        int rc = rg_movie_save(m, m->path);
        if (rc != RG_OK)
            return rg__error_context(rc, "movie %s not written", m->path);
    }
    m->closed = 1;
    return RG_OK;
}

/* ---- accessors ---- */

const rg_system_info *rg_movie_system(const rg_movie *m)
{
    return m ? m->sys : NULL;
}

const char *rg_movie_game(const rg_movie *m)
{
    return m && m->game ? m->game : "";
}

unsigned rg_movie_players(const rg_movie *m)
{
    return m ? m->players : 0;
}

rg_movie_format rg_movie_format_of(const rg_movie *m)
{
    return m ? m->format : RG_MOVIE_BK2;
}

int rg_movie_is_writing(const rg_movie *m)
{
    return m ? m->writing : 0;
}

uint64_t rg_movie_frame_count(const rg_movie *m)
{
    return m ? m->frames : 0;
}

uint64_t rg_movie_position(const rg_movie *m)
{
    return m ? (m->writing ? m->frames : m->pos) : 0;
}

const char *rg_movie_header(const rg_movie *m, const char *key)
{
    if (!m || !key)
        return NULL;
    for (size_t i = m->n_header; i-- > 0;)
        if (strcmp(m->header[i].key, key) == 0)
            return m->header[i].value;
    return NULL;
}

/* ---- cursor ---- */

int rg_movie_step(rg_movie *m)
{
    if (!m)
        return rg__error(RG_EINVAL, "rg_movie_step: NULL movie");
    if (m->closed)
        return rg__error(RG_EMISUSE, "rg_movie_step: the movie is closed");
    if (m->writing) {
        if (!m->sys)
            return rg__error(RG_EMISUSE, "rg_movie_step: the movie has no system yet (rg_movie_configure)");
        for (unsigned p = 0; p < m->players; p++) /* buttons set before configure */
            m->keys[p] &= m->sys->button_mask;
        int rc = rg__movie_push_frame(m, m->keys, m->cur_cmds);
        if (rc != RG_OK)
            return rc;
        memset(m->keys, 0, sizeof m->keys);
        m->cur_cmds = 0;
        return 1;
    }
    if (m->pos >= m->frames)
        return 0;
    memcpy(m->keys, m->masks + m->pos * m->players, m->players * sizeof *m->keys);
    m->cur_cmds = m->cmds[m->pos];
    m->pos++;
    return 1;
}

uint16_t rg_movie_buttons(const rg_movie *m, unsigned player)
{
    return m && player < m->players ? m->keys[player] : 0;
}

unsigned rg_movie_commands(const rg_movie *m)
{
    return m ? m->cur_cmds : 0;
}

static uint16_t usable(const rg_movie *m, uint16_t mask)
{
    return m->sys ? (uint16_t)(mask & m->sys->button_mask) : mask;
}

int rg_movie_set_buttons(rg_movie *m, unsigned player, uint16_t mask)
{
    if (!m)
        return rg__error(RG_EINVAL, "rg_movie_set_buttons: NULL movie");
    if (m->closed)
        return rg__error(RG_EMISUSE, "rg_movie_set_buttons: the movie is closed");
    if (player >= m->players)
        return rg__error(RG_EINVAL, "player %u of a movie of %u players", player, m->players);
    m->keys[player] = usable(m, mask);
    return RG_OK;
}

int rg_movie_set_commands(rg_movie *m, unsigned commands)
{
    if (!m)
        return rg__error(RG_EINVAL, "rg_movie_set_commands: NULL movie");
    if (m->closed)
        return rg__error(RG_EMISUSE, "rg_movie_set_commands: the movie is closed");
    m->cur_cmds = commands & (RG_MOVIE_CMD_RESET | RG_MOVIE_CMD_POWER);
    return RG_OK;
}

int rg_movie_get_key(const rg_movie *m, unsigned button, unsigned player)
{
    return button < RG_MAX_BUTTONS ? (rg_movie_buttons(m, player) >> button) & 1 : 0;
}

int rg_movie_set_key(rg_movie *m, unsigned button, int pressed, unsigned player)
{
    if (!m)
        return rg__error(RG_EINVAL, "rg_movie_set_key: NULL movie");
    if (button >= RG_MAX_BUTTONS)
        return rg__error(RG_EINVAL, "button %u: joypad ids go from 0 to %d", button, RG_MAX_BUTTONS - 1);
    if (player >= m->players)
        return rg__error(RG_EINVAL, "player %u of a movie of %u players", player, m->players);
    uint16_t bit = (uint16_t)(1u << button);
    uint16_t mask = pressed ? (uint16_t)(m->keys[player] | bit) : (uint16_t)(m->keys[player] & ~bit);
    return rg_movie_set_buttons(m, player, mask);
}

int rg_movie_frame_buttons(const rg_movie *m, uint64_t frame, unsigned player, uint16_t *mask)
{
    if (!m || !mask)
        return rg__error(RG_EINVAL, "rg_movie_frame_buttons: NULL argument");
    if (player >= m->players)
        return rg__error(RG_EINVAL, "player %u of a movie of %u players", player, m->players);
    if (frame >= m->frames)
        return rg__error(RG_ERANGE, "frame %llu of a movie of %zu frames", (unsigned long long)frame, m->frames);
    *mask = m->masks[frame * m->players + player];
    return RG_OK;
}

int rg_movie_frame_commands(const rg_movie *m, uint64_t frame, unsigned *commands)
{
    if (!m || !commands)
        return rg__error(RG_EINVAL, "rg_movie_frame_commands: NULL argument");
    if (frame >= m->frames)
        return rg__error(RG_ERANGE, "frame %llu of a movie of %zu frames", (unsigned long long)frame, m->frames);
    *commands = m->cmds[frame];
    return RG_OK;
}

/* ---- start state ---- */

int rg_movie_state(const rg_movie *m, const uint8_t **data, size_t *size)
{
    if (!m || !data || !size)
        return rg__error(RG_EINVAL, "rg_movie_state: NULL argument");
    *data = m->state_size ? m->state : NULL;
    *size = m->state_size;
    return RG_OK;
}

int rg_movie_set_state(rg_movie *m, const void *data, size_t size)
{
    if (!m || (!data && size))
        return rg__error(RG_EINVAL, "rg_movie_set_state: NULL argument");
    if (m->closed)
        return rg__error(RG_EMISUSE, "rg_movie_set_state: the movie is closed");
    uint8_t *copy = NULL;
    if (size) {
        copy = malloc(size);
        if (!copy)
            return rg__error(RG_ENOMEM, "out of memory for a state of %zu bytes", size);
        memcpy(copy, data, size);
    }
    free(m->state);
    m->state = copy;
    m->state_size = size;
    return RG_OK;
}
