/* Options shared by run and play: --buttons MASK@FRAME[/PORT] (MASK a number or names joined by '+') and
 * --core-option KEY=VALUE. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <string.h>

/* "A+START" -> mask, using the system's button names; or a number. */
static int parse_mask(const char *text, const rg_system_info *sys, uint16_t *mask)
{
    uint64_t v;
    if (cli_parse_u64(text, &v) == 0) {
        if (v > 0xFFFF)
            return cli_fail("button mask %s is wider than 16 bits", text);
        *mask = (uint16_t)v;
        return 0;
    }
    *mask = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save = NULL, *tok = strtok_r(buf, "+", &save); tok; tok = strtok_r(NULL, "+", &save)) {
        int id = rg_system_button_id(sys, tok);
        if (id < 0)
            return cli_fail("%s has no button named \"%s\"", sys ? sys->name : "this system", tok);
        *mask |= (uint16_t)(1u << id);
    }
    return 0;
}

int cli_parse_buttons(const char *text, const rg_system_info *sys, button_spec *out)
{
    char buf[256];
    if (strlen(text) >= sizeof buf)
        return cli_fail("--buttons %s: too long", text);
    strcpy(buf, text);
    char *at = strchr(buf, '@');
    if (!at)
        return cli_fail("--buttons %s: expected MASK@FRAME", text);
    *at = '\0';
    char *slash = strchr(at + 1, '/');
    uint64_t port = 0;
    if (slash) {
        *slash = '\0';
        if (cli_parse_u64(slash + 1, &port) != 0 || port >= RG_MAX_PORTS)
            return cli_fail("--buttons %s: port must be 0..%d", text, RG_MAX_PORTS - 1);
    }
    if (cli_parse_u64(at + 1, &out->frame) != 0)
        return cli_fail("--buttons %s: bad frame number", text);
    out->port = (unsigned)port;
    return parse_mask(buf, sys, &out->mask);
}

/* Insertion sort: stable, so of two specs for one frame and port the later one wins. */
void cli_sort_buttons(button_spec *specs, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        button_spec x = specs[i];
        size_t j = i;
        while (j > 0 && specs[j - 1].frame > x.frame) {
            specs[j] = specs[j - 1];
            j--;
        }
        specs[j] = x;
    }
}

int cli_parse_core_option(char *text, rg_core_option *out)
{
    char *eq = strchr(text, '=');
    if (!eq || eq == text)
        return cli_fail("--core-option %s: expected KEY=VALUE", text);
    *eq = '\0';
    out->key = text;
    out->value = eq + 1;
    return 0;
}
