/* Options shared by the integration-data commands: --data-path, --custom-path, --integrations. */
#include "cli.h"

#include <string.h>

int cli_data_option(cli_data_args *a, int argc, char **argv, int *i)
{
    const char *arg = argv[*i];
    const char *val = *i + 1 < argc ? argv[*i + 1] : NULL;
    const char **slot = NULL;
    if (strcmp(arg, "--data-path") == 0)
        slot = &a->data_path;
    else if (strcmp(arg, "--integrations") == 0)
        slot = &a->integrations;
    else if (strcmp(arg, "--custom-path") != 0)
        return 0;
    if (!val)
        return -cli_fail("%s needs a value", arg);
    if (slot) {
        *slot = val;
    } else {
        if (a->n_custom == CLI_MAX_CUSTOM)
            return -cli_fail("at most %d --custom-path options", CLI_MAX_CUSTOM);
        a->custom[a->n_custom++] = val;
    }
    (*i)++;
    return 1;
}

int cli_data_open(const cli_data_args *a, unsigned fallback_flags, rg_integration_paths **dp, unsigned *flags)
{
    *dp = NULL;
    if (rg_integration_paths_create(dp, a->data_path) != RG_OK)
        return cli_fail("%s", rg_error_last());
    for (size_t i = 0; i < a->n_custom; i++)
        if (rg_integration_paths_add_custom_integration(*dp, a->custom[i]) != RG_OK) {
            rg_integration_paths_free(*dp);
            *dp = NULL;
            return cli_fail("%s", rg_error_last());
        }
    *flags = fallback_flags;
    if (a->integrations && rg_integrations_parse(a->integrations, flags) != RG_OK) {
        rg_integration_paths_free(*dp);
        *dp = NULL;
        return cli_fail("--integrations: %s", rg_error_last());
    }
    return 0;
}

int cli_is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}
