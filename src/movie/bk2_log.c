/* Reading Input Log.txt: the key line names the columns, every frame line is decoded by position.
 *
 * Two key lines exist. stable-retro's has no "LogKey:" prefix (its stream bug overwrites it) and no command group:
 * "P1 A|P1 Right|...|P2 A|...|", while its frame lines still start with the two-character command field "|..|".
 * BizHawk's is "LogKey:#Reset|Power|#P1 Up|...|#P2 Up|...|", one '#' group per '|' field of the frame lines.
 * A column is pressed when its character is neither '.' nor ' ' (BizHawk's rule; stable-retro's files always hold
 * the column's own mnemonic there). BizHawk's analog columns ("  123,") are skipped. */
#include "movie_internal.h"

#include <stdlib.h>
#include <string.h>

enum { COL_BUTTON, COL_COMMAND, COL_OTHER };

typedef struct column {
    int kind;
    unsigned player; /* 0-based */
    unsigned id;     /* joypad id, or RG_MOVIE_CMD_* bit */
} column;

typedef struct layout {
    column *cols;
    size_t n_cols, cap_cols;
    size_t *field_end; /* index past the last column of each field */
    size_t n_fields, cap_fields;
    unsigned players;
} layout;

static void layout_free(layout *l)
{
    free(l->cols);
    free(l->field_end);
    memset(l, 0, sizeof *l);
}

static int end_field(layout *l)
{
    if (rg__reserve(&l->field_end, &l->cap_fields, l->n_fields + 1, sizeof *l->field_end) != RG_OK)
        return RG_ENOMEM;
    l->field_end[l->n_fields++] = l->n_cols;
    return RG_OK;
}

static int add_column(layout *l, column c)
{
    if (rg__reserve(&l->cols, &l->cap_cols, l->n_cols + 1, sizeof *l->cols) != RG_OK)
        return RG_ENOMEM;
    l->cols[l->n_cols++] = c;
    return RG_OK;
}

/* "P<n> <name>" -> player n (1-based) and the name; no prefix -> player 0 (the console). */
static int split_player(const char *s, size_t len, unsigned *player, const char **name, size_t *name_len,
                        size_t line_no)
{
    *player = 0;
    *name = s;
    *name_len = len;
    if (len < 3 || s[0] != 'P' || s[1] < '0' || s[1] > '9')
        return RG_OK;
    size_t i = 1;
    unsigned long n = 0;
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
        if (n <= 1000000) /* beyond any limit already; stop growing */
            n = n * 10 + (unsigned long)(s[i] - '0');
    if (i >= len || s[i] != ' ')
        return RG_OK; /* not a player prefix, e.g. a console button named "P1x" */
    if (n == 0)
        return rg__error(RG_ECORRUPT, "line %zu: a column of player 0", line_no);
    if (n > RG_MOVIE_MAX_PLAYERS)
        return rg__error(RG_ETOOBIG, "line %zu: a column of player %lu, but movies have at most %d players",
                         line_no, n, RG_MOVIE_MAX_PLAYERS);
    *player = (unsigned)n;
    *name = s + i + 1;
    *name_len = len - i - 1;
    return RG_OK;
}

/* What a named column means on this system. Console columns that are buttons of ours (Atari Reset/Select, SMS
 * Pause) belong to player 1; Reset and Power are otherwise commands. */
static column classify(const rg_system_info *sys, unsigned player, const char *name, size_t len)
{
    column c = {COL_OTHER, 0, 0};
    int id = rg__movie_button_by_name(sys, name, len);
    if (id >= 0) {
        c.kind = COL_BUTTON;
        c.player = player ? player - 1 : 0;
        c.id = (unsigned)id;
    } else if (len == 5 && memcmp(name, "Power", 5) == 0) {
        c.kind = COL_COMMAND;
        c.id = RG_MOVIE_CMD_POWER;
    } else if (len == 5 && memcmp(name, "Reset", 5) == 0) {
        c.kind = COL_COMMAND;
        c.id = RG_MOVIE_CMD_RESET;
    }
    return c;
}

/* Builds the layout from the key line. by_player: also start a field whenever the player prefix changes (a key
 * line holding several players in one group, as stable-retro meant to write). */
static int parse_key(const rg_system_info *sys, const char *line, size_t len, size_t line_no, int by_player,
                     layout *l)
{
    int bizhawk = len >= 7 && memcmp(line, "LogKey:", 7) == 0;
    const char *p = line + (bizhawk ? 7 : 0), *end = line + len;
    int rc;
    if (!bizhawk) { /* stable-retro: the implicit command field */
        column reset = {COL_COMMAND, 0, RG_MOVIE_CMD_RESET}, power = {COL_COMMAND, 0, RG_MOVIE_CMD_POWER};
        if (add_column(l, reset) || add_column(l, power) || end_field(l))
            return rg__error(RG_ENOMEM, "out of memory");
        by_player = 1;
    }
    int open = 0;       /* a field has columns not yet closed */
    unsigned last = 0;  /* player of the previous column */
    while (p < end) {
        if (*p == '#') {
            if (open && end_field(l))
                return rg__error(RG_ENOMEM, "out of memory");
            open = 0;
            p++;
            continue;
        }
        const char *bar = memchr(p, '|', (size_t)(end - p));
        const char *hash = memchr(p, '#', (size_t)(end - p));
        const char *stop = bar ? bar : end;
        if (hash && hash < stop)
            stop = hash;
        if (stop == p) { /* an empty column name: "||" */
            p++;
            continue;
        }
        unsigned player;
        const char *name;
        size_t name_len;
        if ((rc = split_player(p, (size_t)(stop - p), &player, &name, &name_len, line_no)) != RG_OK)
            return rc;
        if (by_player && open && player != last && end_field(l))
            return rg__error(RG_ENOMEM, "out of memory");
        if (player > l->players)
            l->players = player;
        if (add_column(l, classify(sys, player, name, name_len)))
            return rg__error(RG_ENOMEM, "out of memory");
        open = 1;
        last = player;
        p = stop < end && *stop == '|' ? stop + 1 : stop;
    }
    if (open && end_field(l))
        return rg__error(RG_ENOMEM, "out of memory");
    if (l->players == 0)
        l->players = 1;
    return RG_OK;
}

/* Number of '|'-separated fields of a frame line "|a|b|c|" (3), or 0 when it does not end with '|'. */
static size_t count_fields(const char *line, size_t len)
{
    if (len < 2 || line[len - 1] != '|')
        return 0;
    size_t n = 0;
    for (size_t i = 1; i < len; i++)
        n += line[i] == '|';
    return n;
}

/* A BizHawk analog value: optional spaces, optional '-', digits, ','. Returns its length or 0. */
static size_t analog_cell(const char *p, const char *end)
{
    const char *q = p;
    while (q < end && *q == ' ')
        q++;
    if (q < end && *q == '-')
        q++;
    const char *digits = q;
    while (q < end && *q >= '0' && *q <= '9')
        q++;
    if (q == digits || q >= end || *q != ',')
        return 0;
    return (size_t)(q + 1 - p);
}

static int parse_frame(rg_movie *m, const layout *l, const char *line, size_t len, size_t line_no)
{
    uint16_t masks[RG_MOVIE_MAX_PLAYERS] = {0};
    unsigned cmds = 0;
    const char *p = line + 1, *end = line + len;
    size_t col = 0;
    for (size_t f = 0; f < l->n_fields; f++) {
        const char *bar = memchr(p, '|', (size_t)(end - p));
        if (!bar)
            return rg__error(RG_ECORRUPT, "line %zu: %zu fields, expected %zu", line_no, f, l->n_fields);
        const char *q = p;
        for (; col < l->field_end[f]; col++) {
            const column *c = &l->cols[col];
            if (q >= bar)
                return rg__error(RG_ECORRUPT, "line %zu: field %zu is %zu characters wide, expected %zu",
                                 line_no, f + 1, (size_t)(bar - p), l->field_end[f] - (f ? l->field_end[f - 1] : 0));
            size_t analog = c->kind == COL_OTHER ? analog_cell(q, bar) : 0;
            if (analog) {
                q += analog;
                continue;
            }
            unsigned char ch = (unsigned char)*q++;
            if (ch < 0x20 || ch >= 0x7f)
                return rg__error(RG_ECORRUPT, "line %zu: byte 0x%02x in field %zu", line_no, ch, f + 1);
            if (ch == '.' || ch == ' ')
                continue;
            if (c->kind == COL_BUTTON)
                masks[c->player] |= (uint16_t)(1u << c->id);
            else if (c->kind == COL_COMMAND)
                cmds |= c->id;
        }
        if (q != bar)
            return rg__error(RG_ECORRUPT, "line %zu: field %zu is %zu characters wide, expected %zu", line_no,
                             f + 1, (size_t)(bar - p), l->field_end[f] - (f ? l->field_end[f - 1] : 0));
        p = bar + 1;
    }
    if (p != end)
        return rg__error(RG_ECORRUPT, "line %zu: more fields than the key line has (%zu)", line_no, l->n_fields);
    for (unsigned i = 0; i < m->players; i++)
        masks[i] &= m->sys->button_mask;
    return rg__movie_push_frame(m, masks, cmds);
}

static int is_text(const char *line, size_t len, const char *s)
{
    return strlen(s) == len && memcmp(line, s, len) == 0;
}

/* One line of the log (without its line break). */
static int log_line(rg_movie *m, rg__bk2_log *st, const char *line, size_t len)
{
    layout *l = st->layout;
    size_t no = ++st->line_no;
    if (len > 0 && line[len - 1] == '\r')
        len--;
    if (len == 0 || st->ended)
        return RG_OK; /* whatever follows [/Input] is not input */
    if (is_text(line, len, "[Input]"))
        return st->key || m->frames ? rg__error(RG_ECORRUPT, "line %zu: [Input] again", no) : RG_OK;
    if (is_text(line, len, "[/Input]")) {
        st->ended = 1;
        return RG_OK;
    }
    if (line[0] != '|') {
        if (st->key)
            return rg__error(RG_ECORRUPT, "line %zu: neither a frame nor [/Input]", no);
        if (!(len >= 7 && memcmp(line, "LogKey:", 7) == 0) && !memchr(line, '|', len))
            return rg__error(RG_ECORRUPT, "line %zu: expected the key line (LogKey: or P1 ...|)", no);
        if (!(st->key = malloc(len + 1)))
            return rg__error(RG_ENOMEM, "out of memory");
        memcpy(st->key, line, len);
        st->key[len] = '\0';
        st->key_len = len;
        st->key_no = no;
        return RG_OK;
    }
    if (!st->key)
        return rg__error(RG_ECORRUPT, "line %zu: a frame before the key line", no);
    if (!st->have_layout) {
        /* The columns as grouped by the key line; if the first frame has another field count, try one field per
         * player instead. */
        int rc = parse_key(m->sys, st->key, st->key_len, st->key_no, 0, l);
        size_t n = count_fields(line, len);
        if (rc == RG_OK && n != l->n_fields) {
            layout alt = {0};
            rc = parse_key(m->sys, st->key, st->key_len, st->key_no, 1, &alt);
            if (rc == RG_OK && alt.n_fields == n) {
                layout_free(l);
                *l = alt;
            } else {
                layout_free(&alt);
            }
        }
        if (rc != RG_OK)
            return rc;
        m->players = l->players;
        st->have_layout = 1;
    }
    return parse_frame(m, l, line, len, no);
}

int rg__bk2_log_begin(rg__bk2_log *st)
{
    memset(st, 0, sizeof *st);
    if (!(st->layout = calloc(1, sizeof(layout))))
        return rg__error(RG_ENOMEM, "out of memory");
    return RG_OK;
}

int rg__bk2_log_feed(rg_movie *m, rg__bk2_log *st, const char *data, size_t size)
{
    const char *nul = memchr(data, '\0', size);
    if (nul)
        return rg__error(RG_ECORRUPT, "the log holds a NUL byte at offset %zu: not a text file",
                         st->offset + (size_t)(nul - data));
    st->offset += size;
    const char *p = data, *end = data + size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl : end;
        size_t n = (size_t)(stop - p);
        if (!nl || st->pending_len) { /* a line cut by the end of a chunk: kept until its end comes */
            if (!st->ended) {
                if (st->pending_len + n > RG__BK2_MAX_LINE)
                    return rg__error(RG_ECORRUPT, "line %zu is longer than %u bytes", st->line_no + 1,
                                     (unsigned)RG__BK2_MAX_LINE);
                if (rg__reserve(&st->pending, &st->pending_cap, st->pending_len + n + 1, 1) != RG_OK)
                    return rg__error(RG_ENOMEM, "out of memory");
                memcpy(st->pending + st->pending_len, p, n);
            }
            st->pending_len += n;
            st->pending_open = 1;
            if (!nl)
                break;
            int rc = log_line(m, st, st->pending ? st->pending : "", st->ended ? 0 : st->pending_len);
            st->pending_len = 0;
            st->pending_open = 0;
            if (rc != RG_OK)
                return rc;
        } else {
            int rc = log_line(m, st, p, n);
            if (rc != RG_OK)
                return rc;
        }
        p = nl + 1;
    }
    return RG_OK;
}

int rg__bk2_log_end(rg_movie *m, rg__bk2_log *st)
{
    int rc = RG_OK;
    if (st->pending_open) /* a last line without a line break */
        rc = log_line(m, st, st->pending ? st->pending : "", st->ended ? 0 : st->pending_len);
    layout *l = st->layout;
    if (rc == RG_OK && !st->have_layout) { /* no frames: the players still come from the key line */
        if (st->key)
            rc = parse_key(m->sys, st->key, st->key_len, st->key_no, 0, l);
        m->players = st->key ? l->players : 1;
    }
    return rc;
}

void rg__bk2_log_free(rg__bk2_log *st)
{
    if (st->layout)
        layout_free(st->layout);
    free(st->layout);
    free(st->key);
    free(st->pending);
    memset(st, 0, sizeof *st);
}

int rg__bk2_parse_log(rg_movie *m, const char *text, size_t size)
{
    rg__bk2_log st;
    int rc = rg__bk2_log_begin(&st);
    if (rc == RG_OK)
        rc = rg__bk2_log_feed(m, &st, text, size);
    if (rc == RG_OK)
        rc = rg__bk2_log_end(m, &st);
    rg__bk2_log_free(&st);
    return rc;
}
