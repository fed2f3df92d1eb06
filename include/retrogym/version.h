/** @file version.h Library version. */
#ifndef RETROGYM_VERSION_H
#define RETROGYM_VERSION_H

#include "export.h"

#define RG_VERSION_MAJOR 0
#define RG_VERSION_MINOR 1
#define RG_VERSION_PATCH 0
#define RG_VERSION_STRING "0.1.0"

#ifdef __cplusplus
extern "C" {
#endif

/** The version of the library actually linked, "0.1.0". */
RG_API const char *rg_version(void);

#ifdef __cplusplus
}
#endif
#endif
