#include "retrogym/version.h"

const char *rg_version(void)
{
    return RG_VERSION_STRING;
}
