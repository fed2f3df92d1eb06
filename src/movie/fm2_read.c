/* Reading FCEUX .fm2 movies (NES, text form): "version 3", "key value" header lines, then one line per frame,
 * "|cmd|RLDUTSBA|RLDUTSBA|port2|" with the command as a decimal number (1 soft reset, 2 power) and one field per
 * port: a gamepad is 8 characters in the order Right Left Down Up sTart Select B A, pressed unless '.' or ' '.
 * With "fourscore 1" there are four gamepad fields. Other port devices (zapper) are skipped, not decoded. */
#include "movie_internal.h"

#include <stdlib.h>
#include <string.h>

/* Joypad id of each gamepad character position: RIGHT LEFT DOWN UP START SELECT B A. */
static const unsigned pad_ids[8] = {7, 6, 5, 4, 3, 2, 0, 8};

enum { PORT_NONE = 0, PORT_GAMEPAD = 1 };

static long header_number(const rg_movie *m, const char *key, long fallback)
{
    const char *v = rg_movie_header(m, key);
    if (!v || !*v)
        return fallback;
    char *end;
    long n = strtol(v, &end, 10);
    return *end == '\0' ? n : -1;
}

static int parse_frame(rg_movie *m, const int *ports, size_t n_ports, const char *line, size_t len,
                       size_t line_no)
{
    uint16_t masks[RG_MOVIE_MAX_PLAYERS] = {0};
    const char *p = line + 1, *end = line + len;
    const char *bar = memchr(p, '|', (size_t)(end - p));
    if (!bar)
        return rg__error(RG_ECORRUPT, "line %zu: no command field", line_no);
    unsigned long cmd = 0;
    for (const char *q = p; q < bar; q++) {
        if (*q == ' ')
            continue;
        if (*q < '0' || *q > '9' || cmd > 1000000)
            return rg__error(RG_ECORRUPT, "line %zu: the command field is not a number", line_no);
        cmd = cmd * 10 + (unsigned long)(*q - '0');
    }
    unsigned cmds = (cmd & 1 ? RG_MOVIE_CMD_RESET : 0) | (cmd & 2 ? RG_MOVIE_CMD_POWER : 0);
    p = bar + 1;
    for (size_t f = 0; f < n_ports; f++) {
        bar = memchr(p, '|', (size_t)(end - p));
        if (!bar)
            return rg__error(RG_ECORRUPT, "line %zu: %zu port fields, expected %zu", line_no, f, n_ports);
        if (ports[f] == PORT_GAMEPAD) {
            if (bar - p != 8)
                return rg__error(RG_ECORRUPT, "line %zu: gamepad field %zu is %zu characters wide, expected 8",
                                 line_no, f + 1, (size_t)(bar - p));
            for (unsigned i = 0; i < 8; i++) {
                unsigned char ch = (unsigned char)p[i];
                if (ch < 0x20 || ch >= 0x7f)
                    return rg__error(RG_ECORRUPT, "line %zu: byte 0x%02x in gamepad field %zu", line_no, ch, f + 1);
                if (ch != '.' && ch != ' ')
                    masks[f] |= (uint16_t)(1u << pad_ids[i]);
            }
        } else if (ports[f] == PORT_NONE && bar != p) {
            return rg__error(RG_ECORRUPT, "line %zu: field %zu of an empty port holds input", line_no, f + 1);
        }
        p = bar + 1;
    }
    /* The expansion port's field follows (anything, or nothing in old files). */
    if (p < end) {
        bar = memchr(p, '|', (size_t)(end - p));
        if (!bar || bar + 1 != end)
            return rg__error(RG_ECORRUPT, "line %zu: more fields than the header's ports", line_no);
    }
    return rg__movie_push_frame(m, masks, cmds);
}

int rg__fm2_read(rg_movie *m, const char *text, size_t size, const char *label)
{
    int rc = rg__text_check(label, text, size);
    if (rc != RG_OK)
        return rc;
    rg__lines it = {text, text + size, 0};
    const char *line;
    size_t len;
    if (!rg__lines_next(&it, &line, &len) || len != 9 || memcmp(line, "version 3", 9) != 0)
        return rg__error(RG_ECORRUPT, "%s: an FM2 movie starts with the line 'version 3'", label);
    if ((rc = rg_system_find(&m->sys, "Nes")) != RG_OK)
        return rc;
    int ports[4] = {0};
    size_t n_ports = 0;
    int in_input = 0;
    while (rg__lines_next(&it, &line, &len)) {
        if (len == 0)
            continue;
        if (line[0] != '|') {
            if (in_input)
                return rg__error(RG_ECORRUPT, "%s: line %zu: text among the frames", label, it.number);
            const char *sp = memchr(line, ' ', len);
            size_t klen = sp ? (size_t)(sp - line) : len;
            const char *v = sp ? sp + 1 : line + len;
            if ((rc = rg__movie_header_set(m, line, klen, v, (size_t)(line + len - v), 0)) != RG_OK)
                return rc;
            continue;
        }
        if (!in_input) {
            in_input = 1;
            if (header_number(m, "binary", 0) != 0)
                return rg__error(RG_EUNSUPPORTED, "%s: binary FM2 input is not supported", label);
            const char *ss = rg_movie_header(m, "savestate");
            if (ss && *ss)
                return rg__error(RG_EUNSUPPORTED, "%s: the movie starts from an FCEUX savestate, which retrogym "
                                 "cannot load", label);
            long fourscore = header_number(m, "fourscore", 0);
            long port0 = header_number(m, "port0", PORT_GAMEPAD), port1 = header_number(m, "port1", PORT_NONE);
            if (fourscore < 0 || port0 < 0 || port1 < 0)
                return rg__error(RG_ECORRUPT, "%s: a port or fourscore header value is not a number", label);
            if (fourscore) {
                n_ports = 4;
                for (int i = 0; i < 4; i++)
                    ports[i] = PORT_GAMEPAD;
            } else {
                n_ports = 2;
                ports[0] = (int)port0;
                ports[1] = (int)port1;
            }
            /* Port f's gamepad is player f; no gamepad at all: one player who presses nothing. */
            m->players = 1;
            for (size_t i = 0; i < n_ports; i++)
                if (ports[i] == PORT_GAMEPAD)
                    m->players = (unsigned)i + 1;
        }
        if ((rc = parse_frame(m, ports, n_ports, line, len, it.number)) != RG_OK)
            return rg__error_context(rc, "%s", label);
    }
    if (!in_input)
        m->players = header_number(m, "port1", 0) == PORT_GAMEPAD ? 2 : 1;
    m->game = rg__strdup("", &rc);
    return rc;
}
