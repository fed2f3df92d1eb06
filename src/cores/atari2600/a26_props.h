/* Per-cartridge console settings (see a26_props.c). */
#ifndef RG_SRC_CORES_ATARI2600_A26_PROPS_H
#define RG_SRC_CORES_ATARI2600_A26_PROPS_H

#include <stdint.h>

typedef enum rg__a26_format {
    RG__A26_FORMAT_AUTO, RG__A26_FORMAT_NTSC, RG__A26_FORMAT_PAL, RG__A26_FORMAT_PAL60, RG__A26_FORMAT_NTSC50,
    RG__A26_FORMAT_SECAM
} rg__a26_format;

/* What is plugged into a controller port. The paddle variants have the knob's direction or the pair's order
 * inverted (Stella's PADDLES_IAXIS and PADDLES_IAXDR). */
typedef enum rg__a26_controller {
    RG__A26_JOYSTICK, RG__A26_PADDLES, RG__A26_PADDLES_IAXIS, RG__A26_PADDLES_IAXDR
} rg__a26_controller;

typedef struct rg__a26_props {
    int ystart;            /* -1: default (34) */
    int height;            /* 0: default */
    int left_a, right_a;   /* difficulty switches in position A */
    int swap_ports;        /* the joysticks are plugged the other way round */
    rg__a26_format format;
    rg__a26_controller controller[2]; /* left, right port */
    int swap_paddles;
} rg__a26_props;

/* Looks an image up by its MD5; 0 when the cartridge has no special settings. */
int rg__a26_props_find(const uint8_t md5[16], rg__a26_props *out);

#endif
