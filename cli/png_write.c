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
    /* Through a temporary file: a failure leaves an existing PNG of that name as it was. */
    rg_outfile *f;
    if (rg_outfile_open(&f, path) != RG_OK)
        return cli_fail("%s", rg_error_last());
    if (!png_image_write_to_stdio(&img, rg_outfile_stream(f), 0, rgb, (png_int_32)(width * 3), NULL)) {
        rg_outfile_abort(f);
        return cli_fail("cannot write %s: %s", path, img.message);
    }
    return rg_outfile_commit(f) == RG_OK ? 0 : cli_fail("%s", rg_error_last());
}
