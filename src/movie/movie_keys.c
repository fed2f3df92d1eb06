/* Button mnemonics and key-line names per system, platform codes, and small text helpers.
 *
 * stable-retro records a button when its name is in its mnemonic table (A B C X Y Z START SELECT MODE UP DOWN LEFT
 * RIGHT L R BUTTON) and writes the columns in descending joypad id (an artefact of its hash map, reproduced for
 * byte-identical files). The other buttons of our systems get mnemonics of ours, BizHawk's where they do not clash
 * with a stable-retro mnemonic of the same system (PC Engine RUN is `r`, not BizHawk's `R`, which means RIGHT). */
#include "movie_internal.h"

#include <string.h>
#include <strings.h>

typedef struct mnemonic {
    const char *button; /* name in the systems/ JSON files */
    char mnemonic;
    const char *name;   /* key line name */
    int stable;
} mnemonic;

static const mnemonic mnemonics[] = {
    {"A", 'A', "A", 1},          {"B", 'B', "B", 1},         {"C", 'C', "C", 1},
    {"X", 'X', "X", 1},          {"Y", 'Y', "Y", 1},         {"Z", 'Z', "Z", 1},
    {"START", 'S', "Start", 1},  {"SELECT", 's', "Select", 1}, {"MODE", 'M', "Mode", 1},
    {"UP", 'U', "Up", 1},        {"DOWN", 'D', "Down", 1},   {"LEFT", 'L', "Left", 1},
    {"RIGHT", 'R', "Right", 1},  {"L", 'l', "L", 1},         {"R", 'r', "R", 1},
    {"BUTTON", 'B', "Button", 1},
    /* retrogym's extension */
    {"RESET", 'r', "Reset", 0},  {"PAUSE", 'p', "Pause", 0}, {"RUN", 'r', "Run", 0},
    {"I", '1', "I", 0},          {"II", '2', "II", 0},       {"III", '3', "III", 0},
    {"IV", '4', "IV", 0},        {"V", '5', "V", 0},         {"VI", '6', "VI", 0},
};

/* Other names BizHawk uses for the same buttons. */
typedef struct alias {
    const char *system;
    const char *name;
    const char *button;
} alias;

static const alias aliases[] = {
    {"Sms", "B1", "B"},      {"Sms", "B2", "A"},      {"GameGear", "B1", "B"}, {"GameGear", "B2", "A"},
    {"PCEngine", "B1", "I"}, {"PCEngine", "B2", "II"},
};

static const mnemonic *find_mnemonic(const char *button)
{
    for (size_t i = 0; i < sizeof mnemonics / sizeof mnemonics[0]; i++)
        if (strcmp(mnemonics[i].button, button) == 0)
            return &mnemonics[i];
    return NULL;
}

int rg_movie_button_mnemonic(const rg_system_info *sys, unsigned id, char *mnemonic_out, const char **name,
                             int *stable)
{
    if (!sys)
        return rg__error(RG_EINVAL, "rg_movie_button_mnemonic: NULL system");
    const mnemonic *mn = id < RG_MAX_BUTTONS && sys->buttons[id] ? find_mnemonic(sys->buttons[id]) : NULL;
    if (!mn)
        return rg__error(RG_ENOTFOUND, "%s has no movie button for joypad id %u", sys->name, id);
    if (mnemonic_out)
        *mnemonic_out = mn->mnemonic;
    if (name)
        *name = mn->name;
    if (stable)
        *stable = mn->stable;
    return RG_OK;
}

size_t rg__movie_columns(const rg_system_info *sys, rg__movie_column *cols)
{
    size_t n = 0;
    for (unsigned id = RG_MAX_BUTTONS; id-- > 0;) {
        const mnemonic *mn = sys->buttons[id] ? find_mnemonic(sys->buttons[id]) : NULL;
        if (!mn)
            continue;
        cols[n].id = id;
        cols[n].mnemonic = mn->mnemonic;
        cols[n].name = mn->name;
        cols[n].stable = mn->stable;
        n++;
    }
    return n;
}

uint16_t rg__movie_stable_mask(const rg_system_info *sys)
{
    uint16_t mask = 0;
    for (unsigned id = 0; id < RG_MAX_BUTTONS; id++) {
        const mnemonic *mn = sys->buttons[id] ? find_mnemonic(sys->buttons[id]) : NULL;
        if (mn && mn->stable)
            mask |= (uint16_t)(1u << id);
    }
    return mask;
}

static int name_is(const char *name, size_t len, const char *s)
{
    return strlen(s) == len && strncasecmp(name, s, len) == 0;
}

int rg__movie_button_by_name(const rg_system_info *sys, const char *name, size_t len)
{
    for (unsigned id = 0; id < RG_MAX_BUTTONS; id++) {
        if (!sys->buttons[id])
            continue;
        const mnemonic *mn = find_mnemonic(sys->buttons[id]);
        if (name_is(name, len, sys->buttons[id]) || (mn && name_is(name, len, mn->name)))
            return (int)id;
    }
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(aliases[i].system, sys->name) == 0 && name_is(name, len, aliases[i].name))
            return rg_system_button_id(sys, aliases[i].button);
    return -1;
}

/* stable-retro's four renamed platforms, then BizHawk's codes for the other systems. */
static const struct {
    const char *code;
    const char *system;
    int written; /* the code stable-retro writes */
} platforms[] = {
    {"GEN", "Genesis", 1}, {"SNES", "Snes", 1},     {"NES", "Nes", 1},         {"A26", "Atari2600", 1},
    {"GB", "GameBoy", 0},  {"GBC", "GbColor", 0},   {"GBA", "GbAdvance", 0},   {"PCE", "PCEngine", 0},
    {"SMS", "Sms", 0},     {"GG", "GameGear", 0},
};

const char *rg__movie_platform_code(const rg_system_info *sys)
{
    for (size_t i = 0; i < sizeof platforms / sizeof platforms[0]; i++)
        if (platforms[i].written && strcmp(platforms[i].system, sys->name) == 0)
            return platforms[i].code;
    return sys->name;
}

int rg__movie_platform_system(const char *platform, const rg_system_info **sys)
{
    for (size_t i = 0; i < sizeof platforms / sizeof platforms[0]; i++)
        if (strcmp(platforms[i].code, platform) == 0)
            return rg_system_find(sys, platforms[i].system);
    if (rg_system_find(sys, platform) == RG_OK)
        return RG_OK;
    char shown[64];
    rg__movie_printable(shown, sizeof shown, platform, strlen(platform));
    return rg__error(RG_EUNSUPPORTED, "movie platform '%s' is not a system retrogym knows", shown);
}

int rg__lines_next(rg__lines *it, const char **line, size_t *len)
{
    if (it->p >= it->end)
        return 0;
    const char *start = it->p;
    const char *nl = memchr(start, '\n', (size_t)(it->end - start));
    const char *stop = nl ? nl : it->end;
    it->p = nl ? nl + 1 : it->end;
    if (stop > start && stop[-1] == '\r')
        stop--;
    it->number++;
    *line = start;
    *len = (size_t)(stop - start);
    return 1;
}

int rg__text_check(const char *what, const char *data, size_t size)
{
    const char *nul = memchr(data, '\0', size);
    if (nul)
        return rg__error(RG_ECORRUPT, "%s holds a NUL byte at offset %zu: not a text file", what,
                         (size_t)(nul - data));
    return RG_OK;
}

void rg__movie_printable(char *dst, size_t cap, const char *src, size_t len)
{
    size_t o = 0, i = 0;
    if (cap < 5) {
        if (cap)
            dst[0] = '\0';
        return;
    }
    for (; i < len && o + 4 < cap; i++) {
        unsigned char c = (unsigned char)src[i];
        dst[o++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    if (i < len) { /* cut: room for "..." is left by the loop bound */
        memcpy(dst + o, "...", 3);
        o += 3;
    }
    dst[o] = '\0';
}
