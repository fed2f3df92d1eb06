/* The per-system table, parsed once from the JSON files of systems/ that the build embeds in the library.
 * The parsed table is immutable afterwards and shared by all threads. */
#include "retrogym/system.h"

#include "base/base.h"

#include <ctype.h>
#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

extern const char *const rg__embedded_systems[];

#define MAX_SYSTEMS 32

static rg_system_info table[MAX_SYSTEMS];
static size_t table_count;
static int table_rc = RG_OK;
static char table_error[512];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

/* Everything parsed is allocated once and kept for the life of the process. */
static char *keep_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

static int string_array(json_t *arr, const char *const **out, size_t *n, int allow_null)
{
    if (!json_is_array(arr))
        return -1;
    size_t len = json_array_size(arr);
    const char **v = calloc(len ? len : 1, sizeof *v);
    if (!v)
        return -1;
    for (size_t i = 0; i < len; i++) {
        json_t *e = json_array_get(arr, i);
        if (json_is_null(e) && allow_null)
            continue;
        if (!json_is_string(e) || !(v[i] = keep_string(json_string_value(e))))
            return -1;
    }
    *out = v;
    *n = len;
    return 0;
}

static int button_mask(const rg_system_info *sys, json_t *combo, uint16_t *out)
{
    uint16_t mask = 0;
    if (!json_is_array(combo))
        return -1;
    for (size_t i = 0; i < json_array_size(combo); i++) {
        json_t *b = json_array_get(combo, i);
        int id = json_is_string(b) ? rg_system_button_id(sys, json_string_value(b)) : -1;
        if (id < 0)
            return -1; /* our own files name only real buttons */
        mask |= (uint16_t)(1u << id);
    }
    *out = mask;
    return 0;
}

static int parse_actions(rg_system_info *sys, json_t *groups)
{
    if (!json_is_array(groups))
        return -1;
    size_t ng = json_array_size(groups);
    rg_action_group *g = calloc(ng ? ng : 1, sizeof *g);
    if (!g)
        return -1;
    for (size_t i = 0; i < ng; i++) {
        json_t *combos = json_array_get(groups, i);
        if (!json_is_array(combos))
            return -1;
        size_t nc = json_array_size(combos);
        uint16_t *c = calloc(nc ? nc : 1, sizeof *c);
        if (!c)
            return -1;
        for (size_t j = 0; j < nc; j++)
            if (button_mask(sys, json_array_get(combos, j), &c[j]) != 0)
                return -1;
        g[i].combos = c;
        g[i].n_combos = nc;
    }
    sys->actions = g;
    sys->n_actions = ng;
    return 0;
}

static int parse_magic(rg_system_info *sys, json_t *magic)
{
    if (!magic || json_is_null(magic))
        return 0;
    const char *hex = json_string_value(magic);
    size_t n = hex ? strlen(hex) : 1;
    if (n % 2 != 0 || n == 0)
        return -1;
    uint8_t *bytes = malloc(n / 2);
    if (!bytes)
        return -1;
    for (size_t i = 0; i < n / 2; i++) {
        char pair[3] = {hex[2 * i], hex[2 * i + 1], 0};
        if (!isxdigit((unsigned char)pair[0]) || !isxdigit((unsigned char)pair[1]))
            return -1;
        bytes[i] = (uint8_t)strtoul(pair, NULL, 16);
    }
    sys->rom_magic = bytes;
    sys->rom_magic_len = n / 2;
    return 0;
}

static int parse_overlay(rg_system_info *sys, json_t *ov)
{
    if (!ov || json_is_null(ov))
        return 0;
    if (!json_is_array(ov) || json_array_size(ov) != 3)
        return -1;
    const char *backing = json_string_value(json_array_get(ov, 0));
    const char *real = json_string_value(json_array_get(ov, 1));
    json_t *width = json_array_get(ov, 2);
    if (!backing || !real || strlen(backing) != 1 || strlen(real) != 1 || !json_is_integer(width))
        return -1;
    json_int_t w = json_integer_value(width);
    if (w != 1 && w != 2 && w != 4 && w != 8)
        return -1;
    sys->overlay_backing = backing[0];
    sys->overlay_real = real[0];
    sys->overlay_width = (unsigned)w;
    return 0;
}

/* "core_options": {"<core>": {"<key>": "<value>", ...}, ...} */
static int parse_core_options(rg_system_info *sys, json_t *co)
{
    if (!co)
        return 0;
    if (!json_is_object(co))
        return -1;
    size_t n = 0;
    const char *core, *key;
    json_t *opts, *val;
    json_object_foreach(co, core, opts) {
        if (!json_is_object(opts))
            return -1;
        n += json_object_size(opts);
    }
    rg_system_core_option *out = calloc(n ? n : 1, sizeof *out);
    if (!out)
        return -1;
    size_t i = 0;
    json_object_foreach(co, core, opts) {
        json_object_foreach(opts, key, val) {
            if (!json_is_string(val) || !(out[i].core = keep_string(core)) || !(out[i].key = keep_string(key)) ||
                !(out[i].value = keep_string(json_string_value(val)))) {
                free(out);
                return -1;
            }
            i++;
        }
    }
    sys->core_options = out;
    sys->n_core_options = n;
    return 0;
}

static int parse_system(rg_system_info *sys, json_t *root)
{
    const char *name = json_string_value(json_object_get(root, "name"));
    const char *title = json_string_value(json_object_get(root, "title"));
    if (!name || !title || !(sys->name = keep_string(name)) || !(sys->title = keep_string(title)))
        return -1;
    if (string_array(json_object_get(root, "extensions"), &sys->extensions, &sys->n_extensions, 0) != 0 ||
        string_array(json_object_get(root, "cores"), &sys->cores, &sys->n_cores, 0) != 0 ||
        string_array(json_object_get(root, "search_types"), &sys->search_types, &sys->n_search_types, 0) != 0)
        return -1;
    const char *const *buttons;
    size_t nb;
    if (string_array(json_object_get(root, "buttons"), &buttons, &nb, 1) != 0 || nb > RG_MAX_BUTTONS)
        return -1;
    for (size_t i = 0; i < nb; i++)
        sys->buttons[i] = buttons[i];
    free((void *)buttons);
    sys->n_buttons = (unsigned)nb;
    for (size_t i = 0; i < nb; i++)
        if (sys->buttons[i])
            sys->button_mask |= (uint16_t)(1u << i);
    json_t *copier = json_object_get(root, "copier_header");
    if (copier && (!json_is_integer(copier) || json_integer_value(copier) < 0 || json_integer_value(copier) >= 1024))
        return -1;
    sys->copier_header = copier ? (size_t)json_integer_value(copier) : 0;
    json_t *ram_max = json_object_get(root, "ram_max");
    if (ram_max && (!json_is_integer(ram_max) || json_integer_value(ram_max) < 0))
        return -1;
    sys->ram_max = ram_max ? (size_t)json_integer_value(ram_max) : 0;
    json_t *base = json_object_get(root, "ram_base");
    json_t *min = json_object_get(root, "min_rom_size");
    if (!json_is_integer(base) || json_integer_value(base) < 0 || !json_is_integer(min) ||
        json_integer_value(min) < 0)
        return -1;
    sys->ram_base = (uint64_t)json_integer_value(base);
    sys->min_rom_size = (size_t)json_integer_value(min);
    if (parse_overlay(sys, json_object_get(root, "overlay")) != 0 ||
        parse_magic(sys, json_object_get(root, "rom_magic")) != 0 ||
        parse_actions(sys, json_object_get(root, "actions")) != 0 ||
        parse_core_options(sys, json_object_get(root, "core_options")) != 0)
        return -1;
    return 0;
}

static void load_table(void)
{
    for (size_t i = 0; rg__embedded_systems[i]; i++) {
        json_error_t err;
        if (table_count == MAX_SYSTEMS) {
            table_rc = RG_ECORRUPT;
            snprintf(table_error, sizeof table_error, "more than %d systems", MAX_SYSTEMS);
            return;
        }
        json_t *root = json_loads(rg__embedded_systems[i], 0, &err);
        if (!root) {
            table_rc = RG_ECORRUPT;
            snprintf(table_error, sizeof table_error, "system file %zu: line %d: %s", i, err.line, err.text);
            return;
        }
        int bad = parse_system(&table[table_count], root);
        json_decref(root);
        if (bad) {
            table_rc = RG_ECORRUPT;
            snprintf(table_error, sizeof table_error, "system file %zu (%s) is malformed", i,
                     table[table_count].name ? table[table_count].name : "?");
            return;
        }
        table_count++;
    }
}

static int ensure_table(void)
{
    pthread_once(&table_once, load_table);
    if (table_rc != RG_OK)
        return rg__error(table_rc, "built-in system table: %s", table_error);
    return RG_OK;
}

size_t rg_system_count(void)
{
    return ensure_table() == RG_OK ? table_count : 0;
}

const rg_system_info *rg_system_at(size_t i)
{
    if (ensure_table() != RG_OK || i >= table_count)
        return NULL;
    return &table[i];
}

int rg_system_find(const rg_system_info **out, const char *name)
{
    if (!out || !name)
        return rg__error(RG_EINVAL, "rg_system_find: NULL argument");
    *out = NULL;
    int rc = ensure_table();
    if (rc != RG_OK)
        return rc;
    for (size_t i = 0; i < table_count; i++) {
        if (strcmp(table[i].name, name) == 0) {
            *out = &table[i];
            return RG_OK;
        }
    }
    return rg__error(RG_ENOTFOUND, "unknown system \"%s\"", name);
}

int rg_system_for_path(const rg_system_info **out, const char *path_or_ext)
{
    if (!out || !path_or_ext)
        return rg__error(RG_EINVAL, "rg_system_for_path: NULL argument");
    *out = NULL;
    int rc = ensure_table();
    if (rc != RG_OK)
        return rc;
    const char *slash = strrchr(path_or_ext, '/');
    const char *base = slash ? slash + 1 : path_or_ext;
    const char *dot = strrchr(base, '.');
    const char *ext = dot ? dot + 1 : base;
    for (size_t i = 0; i < table_count; i++)
        for (size_t j = 0; j < table[i].n_extensions; j++)
            if (strcasecmp(table[i].extensions[j], ext) == 0) {
                *out = &table[i];
                return RG_OK;
            }
    return rg__error(RG_ENOTFOUND, "no system handles the extension \"%s\" (%s)", ext, path_or_ext);
}

int rg_system_button_id(const rg_system_info *sys, const char *button)
{
    if (!sys || !button)
        return -1;
    for (unsigned i = 0; i < sys->n_buttons; i++)
        if (sys->buttons[i] && strcmp(sys->buttons[i], button) == 0)
            return (int)i;
    return -1;
}
