/** @file version.h Library version. */
#ifndef RETROGYM_VERSION_H
#define RETROGYM_VERSION_H

#include "export.h"

/* The one source of retrogym's version: CMake's project(VERSION) (and so retrogym.pc, retrogymConfigVersion.cmake,
 * libretrogym.so's SONAME) and the Python package's version (pyproject.toml, scikit-build-core's regex provider)
 * are read from these three lines; keep their form. */
#define RG_VERSION_MAJOR 0
#define RG_VERSION_MINOR 1
#define RG_VERSION_PATCH 0

/** One number for compile-time checks: MAJOR * 10000 + MINOR * 100 + PATCH (0.1.0 is 100). */
#define RG_VERSION_NUMBER (RG_VERSION_MAJOR * 10000 + RG_VERSION_MINOR * 100 + RG_VERSION_PATCH)

#define RG_VERSION_STR_(x) #x
#define RG_VERSION_STR(x) RG_VERSION_STR_(x)
/** "MAJOR.MINOR.PATCH", a string literal ("0.1.0"). */
#define RG_VERSION_STRING                                                                                         \
    RG_VERSION_STR(RG_VERSION_MAJOR) "." RG_VERSION_STR(RG_VERSION_MINOR) "." RG_VERSION_STR(RG_VERSION_PATCH)

#ifdef __cplusplus
extern "C" {
#endif

/** The version of the library actually linked, "0.1.0". */
RG_API const char *rg_version(void);

#ifdef __cplusplus
}
#endif
#endif
