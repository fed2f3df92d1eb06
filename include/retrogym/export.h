/**
 * @file export.h
 * RG_API marks each function of the public API. The library is compiled with hidden symbol visibility, so the shared
 * library (libretrogym.so) exports exactly these functions and nothing of its internals (the rg__ functions).
 */
#ifndef RETROGYM_EXPORT_H
#define RETROGYM_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define RG_API __attribute__((visibility("default")))
#else
#define RG_API
#endif

#endif
