#include "cli.h"

#include <png.h>
#include <string.h>

int cli_write_png(const char *path, const uint8_t *rgb, unsigned width, unsigned height)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = width;
    img.height = height;
    img.format = PNG_FORMAT_RGB;
    if (!png_image_write_to_file(&img, path, 0, rgb, (png_int_32)(width * 3), NULL))
        return cli_fail("cannot write %s: %s", path, img.message);
    return 0;
}
