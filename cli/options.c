/* The option parser of the commands that take one subject (a game or a movie) and a table of options. */
#include "cli.h"

#include <string.h>

static const cli_opt *find(const cli_command *c, const char *arg)
{
    for (size_t k = 0; k < c->n_opts; k++)
        if (strcmp(c->opts[k].name, arg) == 0)
            return &c->opts[k];
    return NULL;
}

/* Stores the value of option o (val is writable: --core-option splits it in place). 0, or 1 after an error. */
static int store(const cli_command *c, const cli_opt *o, char *val)
{
    switch (o->kind) {
    case CLI_OPT_FLAG:
        *(int *)o->dst = 1;
        return 0;
    case CLI_OPT_STR:
        *(const char **)o->dst = val;
        return 0;
    case CLI_OPT_U64:
        if (cli_parse_u64(val, (uint64_t *)o->dst) != 0)
            return cli_fail("%s: \"%s\" is not a number", o->name, val);
        return 0;
    case CLI_OPT_LIST: {
        cli_list *l = o->dst;
        if (l->count == l->cap)
            return cli_fail("%s: at most %zu %s", c->name, l->cap, o->name);
        l->items[l->count++] = val;
        return 0;
    }
    case CLI_OPT_CORE_OPTION: {
        cli_core_options *co = o->dst;
        if (co->count == CLI_MAX_CORE_OPTIONS)
            return cli_fail("%s: more than %d %s", c->name, CLI_MAX_CORE_OPTIONS, o->name);
        return cli_parse_core_option(val, &co->items[co->count++]);
    }
    }
    return cli_fail("%s: bad option table", c->name);
}

int cli_parse_command(const cli_command *c, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        int d = c->data ? cli_data_option(c->data, argc, argv, &i) : 0;
        if (d != 0) {
            if (d < 0)
                return 1;
            continue;
        }
        if (cli_is_help(arg)) {
            fputs(c->help, cli_out);
            return -1;
        }
        const cli_opt *o = find(c, arg);
        if (o) {
            char *val = NULL;
            if (o->kind != CLI_OPT_FLAG) {
                if (i + 1 >= argc)
                    return cli_fail("%s needs a value", arg);
                val = argv[++i];
            }
            if (store(c, o, val) != 0)
                return 1;
            if (o->seen)
                *o->seen = 1;
        } else if (arg[0] == '-' && arg[1]) {
            return cli_fail("%s: unknown option %s (see --help)", c->name, arg);
        } else if (!*c->subject) {
            *c->subject = arg;
        } else {
            return cli_fail("%s: one %s at a time", c->name, c->subject_name);
        }
    }
    return 0;
}
