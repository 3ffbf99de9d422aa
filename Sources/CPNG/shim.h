// libpng for TetherImages, with a small shim that keeps libpng's error handling in C.
//
// libpng reports a fatal error through the error function given to `png_create_*_struct`; the shim's copies the
// message and `png_longjmp`s to the `setjmp` taken in the same shim function that called into libpng, so the jump
// never crosses a Swift frame, and nothing is printed. Every `tether_png_*` function returns 0 on success and 1 on
// failure, with the message in `message`.
#ifndef TETHER_CPNG_SHIM_H
#define TETHER_CPNG_SHIM_H

#include <setjmp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

/// One decoding, created by `tether_png_decoder_create` and freed by `tether_png_decoder_destroy`.
typedef struct {
    png_structp png;
    png_infop info;
    const unsigned char *data;
    size_t size;
    size_t offset;
    png_bytepp rows;
    char message[256];
    /// After `begin`: the size, the original colour type and bit depth, and whether it is interlaced.
    png_uint_32 width;
    png_uint_32 height;
    int color_type;
    int bit_depth;
    int interlaced;
    /// After `begin`: the bytes per pixel of the rows read, 4 (RGBA), or 3 (RGB) when `begin` was allowed to
    /// leave an image without alpha as RGB.
    int channels;
} tether_png_decoder;

static void tether_png_fail(png_structp png, png_const_charp text) {
    tether_png_decoder *decoder = (tether_png_decoder *)png_get_error_ptr(png);
    strncpy(decoder->message, text, sizeof(decoder->message) - 1);
    decoder->message[sizeof(decoder->message) - 1] = 0;
    png_longjmp(png, 1);
}

static void tether_png_warn(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void tether_png_read_data(png_structp png, png_bytep out, size_t length) {
    tether_png_decoder *decoder = (tether_png_decoder *)png_get_io_ptr(png);
    if (length > decoder->size - decoder->offset) png_error(png, "the PNG data ends early");
    memcpy(out, decoder->data + decoder->offset, length);
    decoder->offset += length;
}

static tether_png_decoder *tether_png_decoder_create(void) {
    return (tether_png_decoder *)calloc(1, sizeof(tether_png_decoder));
}

static void tether_png_decoder_destroy(tether_png_decoder *decoder) {
    if (decoder == NULL) return;
    if (decoder->png != NULL) png_destroy_read_struct(&decoder->png, decoder->info ? &decoder->info : NULL, NULL);
    free(decoder->rows);
    free(decoder);
}

/// Reads the header of `size` bytes at `data` (alive until the decoder is destroyed) and sets the transformations
/// that turn every PNG (palette, grey, 1–16 bits, alpha or `tRNS`, interlaced) into 8-bit RGBA rows, or RGB rows
/// for an image without alpha when `allow_rgb` is set (`channels` says which).
///
/// The zlib stream's Adler-32 is not checked: every IDAT chunk's CRC already is (a corrupt or cut file still
/// fails), and the checksum cost about a tenth of the decoding.
static int tether_png_decoder_begin(tether_png_decoder *decoder, const unsigned char *data, size_t size,
                                    png_uint_32 max_side, int allow_rgb) {
    decoder->data = data;
    decoder->size = size;
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, decoder, tether_png_fail, tether_png_warn);
    if (decoder->png == NULL) {
        strcpy(decoder->message, "libpng could not start");
        return 1;
    }
    if (setjmp(png_jmpbuf(decoder->png))) return 1;
    decoder->info = png_create_info_struct(decoder->png);
    if (decoder->info == NULL) png_error(decoder->png, "out of memory");
    png_set_read_fn(decoder->png, decoder, tether_png_read_data);
    png_set_user_limits(decoder->png, max_side, max_side);
#if defined(PNG_IGNORE_ADLER32) && defined(PNG_SET_OPTION_SUPPORTED)
    png_set_option(decoder->png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    png_read_info(decoder->png, decoder->info);
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    decoder->width = png_get_image_width(png, info);
    decoder->height = png_get_image_height(png, info);
    decoder->color_type = png_get_color_type(png, info);
    decoder->bit_depth = png_get_bit_depth(png, info);
    decoder->interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    if (decoder->color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (decoder->color_type == PNG_COLOR_TYPE_GRAY && decoder->bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (has_trns) png_set_tRNS_to_alpha(png);
    if (decoder->bit_depth == 16) png_set_scale_16(png);
    if (decoder->color_type == PNG_COLOR_TYPE_GRAY || decoder->color_type == PNG_COLOR_TYPE_GRAY_ALPHA) {
        png_set_gray_to_rgb(png);
    }
    int opaque = (decoder->color_type & PNG_COLOR_MASK_ALPHA) == 0 && !has_trns;
    if (opaque && !allow_rgb) png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    decoder->channels = opaque && allow_rgb ? 3 : 4;
    if (png_get_rowbytes(png, info) != (size_t)decoder->width * decoder->channels) {
        png_error(png, "unexpected row layout");
    }
    return 0;
}

/// Reads the next row (`width` × `channels` bytes) of an image that is not interlaced.
static int tether_png_decoder_read_row(tether_png_decoder *decoder, unsigned char *row) {
    if (setjmp(png_jmpbuf(decoder->png))) return 1;
    png_read_row(decoder->png, row, NULL);
    return 0;
}

/// Reads the chunks after the last row (so a file cut short after its pixels fails too).
static int tether_png_decoder_finish(tether_png_decoder *decoder) {
    if (setjmp(png_jmpbuf(decoder->png))) return 1;
    png_read_end(decoder->png, NULL);
    return 0;
}

/// Reads the whole image into `rgba` (`height` rows of `stride` bytes, `stride` >= width × 4) and the chunks
/// after it (so a file cut short after its pixels fails too).
static int tether_png_decoder_read(tether_png_decoder *decoder, unsigned char *rgba, size_t stride) {
    if (setjmp(png_jmpbuf(decoder->png))) return 1;
    decoder->rows = (png_bytepp)malloc(sizeof(png_bytep) * (decoder->height > 0 ? decoder->height : 1));
    if (decoder->rows == NULL) png_error(decoder->png, "out of memory");
    for (png_uint_32 y = 0; y < decoder->height; y++) decoder->rows[y] = rgba + (size_t)y * stride;
    png_read_image(decoder->png, decoder->rows);
    png_read_end(decoder->png, NULL);
    return 0;
}

/// A growing output buffer for `tether_png_encode`.
typedef struct {
    unsigned char *bytes;
    size_t count;
    size_t capacity;
} tether_png_buffer;

static void tether_png_write_data(png_structp png, png_bytep data, size_t length) {
    tether_png_buffer *buffer = (tether_png_buffer *)png_get_io_ptr(png);
    if (buffer->count + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity * 2 : 4096;
        while (capacity < buffer->count + length) capacity *= 2;
        unsigned char *bytes = (unsigned char *)realloc(buffer->bytes, capacity);
        if (bytes == NULL) png_error(png, "out of memory");
        buffer->bytes = bytes;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->count, data, length);
    buffer->count += length;
}

static void tether_png_flush(png_structp png) { (void)png; }

/// Encodes rows already in the layout of `color_type` and `bit_depth` (16-bit samples big-endian, sub-byte
/// samples packed) into a `malloc`ed buffer the caller frees. `palette` (`palette_count` RGB triples) is needed
/// for `PNG_COLOR_TYPE_PALETTE`; `trans` (`trans_count` alpha bytes) adds a `tRNS` chunk for a palette.
/// `message` holds 256 bytes.
static int tether_png_encode(const unsigned char *pixels, size_t stride, png_uint_32 width, png_uint_32 height,
                             int bit_depth, int color_type, int interlaced, const unsigned char *palette,
                             int palette_count, const unsigned char *trans, int trans_count, int compression,
                             unsigned char **output, size_t *output_size, char *message) {
    tether_png_decoder failure; // only its message buffer is used, as the error pointer
    memset(&failure, 0, sizeof(failure));
    tether_png_buffer *buffer = (tether_png_buffer *)calloc(1, sizeof(tether_png_buffer));
    png_bytepp rows = (png_bytepp)malloc(sizeof(png_bytep) * (height > 0 ? height : 1));
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &failure, tether_png_fail, tether_png_warn);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    *output = NULL;
    *output_size = 0;
    if (buffer == NULL || rows == NULL || png == NULL || info == NULL) {
        strcpy(message, "out of memory");
        if (png) png_destroy_write_struct(&png, info ? &info : NULL);
        free(rows);
        free(buffer);
        return 1;
    }
    if (setjmp(png_jmpbuf(png))) {
        strcpy(message, failure.message);
        png_destroy_write_struct(&png, &info);
        free(rows);
        free(buffer->bytes);
        free(buffer);
        return 1;
    }
    png_set_write_fn(png, buffer, tether_png_write_data, tether_png_flush);
    png_set_compression_level(png, compression);
    png_set_IHDR(png, info, width, height, bit_depth, color_type,
                 interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    if (palette != NULL && palette_count > 0) {
        png_color colors[256];
        for (int i = 0; i < palette_count && i < 256; i++) {
            colors[i].red = palette[i * 3];
            colors[i].green = palette[i * 3 + 1];
            colors[i].blue = palette[i * 3 + 2];
        }
        png_set_PLTE(png, info, colors, palette_count);
    }
    if (trans != NULL && trans_count > 0) png_set_tRNS(png, info, trans, trans_count, NULL);
    png_write_info(png, info);
    for (png_uint_32 y = 0; y < height; y++) rows[y] = (png_bytep)(pixels + (size_t)y * stride);
    png_write_image(png, rows);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(rows);
    *output = buffer->bytes;
    *output_size = buffer->count;
    free(buffer);
    return 0;
}

/// The common case of `tether_png_encode`, the package's one PNG writer: 8-bit RGB (`channels` 3) or RGBA (4)
/// rows, top to bottom, not interlaced, at zlib `compression` 0 (stored) to 9.
static int tether_png_encode_8bit(const unsigned char *pixels, png_uint_32 width, png_uint_32 height, int channels,
                                  int compression, unsigned char **output, size_t *output_size, char *message) {
    int color_type = channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB;
    return tether_png_encode(pixels, (size_t)width * (channels == 4 ? 4 : 3), width, height, 8, color_type, 0, NULL,
                             0, NULL, 0, compression, output, output_size, message);
}

#endif
