// libjpeg(-turbo) for TetherImages and TetherServer, with a small shim that keeps libjpeg's error handling in C.
//
// libjpeg reports a fatal error by calling `error_exit`, whose default prints and calls `exit()`. The shim's
// handler formats the message and `longjmp`s back to a `setjmp` taken in the same shim function that called into
// libjpeg, so the jump never crosses a Swift frame. Every `tether_jpeg_*` function returns 0 on success and 1 on
// failure, with the message in the decoder's (or the caller's) `message` buffer.
#ifndef TETHER_CJPEG_SHIM_H
#define TETHER_CJPEG_SHIM_H

#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

/// libjpeg's error manager, a jump target, and the last message.
typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
} tether_jpeg_error;

static void tether_jpeg_error_exit(j_common_ptr common) {
    tether_jpeg_error *error = (tether_jpeg_error *)common->err;
    (*common->err->format_message)(common, error->message);
    longjmp(error->jump, 1);
}

/// Warnings about corrupt data (premature end, bad Huffman codes) are failures: the picture would be garbage or
/// grey. Extraneous bytes between markers are harmless and ignored; trace messages (level >= 0) too.
static void tether_jpeg_emit_message(j_common_ptr common, int level) {
    if (level < 0 && common->err->msg_code != JWRN_EXTRANEOUS_DATA) { tether_jpeg_error_exit(common); }
}

static void tether_jpeg_install_errors(tether_jpeg_error *error) {
    jpeg_std_error(&error->manager);
    error->manager.error_exit = tether_jpeg_error_exit;
    error->manager.emit_message = tether_jpeg_emit_message;
    error->message[0] = 0;
}

/// One decompression, created by `tether_jpeg_decoder_create` and freed by `tether_jpeg_decoder_destroy`.
typedef struct {
    struct jpeg_decompress_struct info;
    tether_jpeg_error error;
    int created;
    JSAMPLE *cmyk_row;
} tether_jpeg_decoder;

static tether_jpeg_decoder *tether_jpeg_decoder_create(void) {
    return (tether_jpeg_decoder *)calloc(1, sizeof(tether_jpeg_decoder));
}

static void tether_jpeg_decoder_destroy(tether_jpeg_decoder *decoder) {
    if (decoder == NULL) return;
    if (decoder->created) jpeg_destroy_decompress(&decoder->info);
    free(decoder->cmyk_row);
    free(decoder);
}

/// Reads the header of `size` bytes at `data` (which must stay alive until the decoder is destroyed). The
/// original size is then in `info.image_width` / `info.image_height`.
static int tether_jpeg_decoder_begin(tether_jpeg_decoder *decoder, const unsigned char *data, unsigned long size,
                                     long max_memory) {
    decoder->info.err = (struct jpeg_error_mgr *)&decoder->error;
    tether_jpeg_install_errors(&decoder->error);
    if (setjmp(decoder->error.jump)) return 1;
    jpeg_create_decompress(&decoder->info);
    decoder->created = 1;
    if (max_memory > 0) decoder->info.mem->max_memory_to_use = max_memory;
    jpeg_mem_src(&decoder->info, data, size);
    if (jpeg_read_header(&decoder->info, TRUE) != JPEG_HEADER_OK) {
        strcpy(decoder->error.message, "no JPEG image in the data");
        return 1;
    }
    return 0;
}

/// Starts decompressing at `scale_num`/8 of the original size (DCT scaling) into RGBA. The output size is then in
/// `info.output_width` / `info.output_height`. `fast` trades a little quality for speed (fast DCT, no fancy
/// upsampling), which is invisible once the picture is downsized further.
static int tether_jpeg_decoder_start(tether_jpeg_decoder *decoder, unsigned int scale_num, int fast) {
    if (setjmp(decoder->error.jump)) return 1;
    struct jpeg_decompress_struct *info = &decoder->info;
    info->scale_num = scale_num;
    info->scale_denom = 8;
    if (fast) {
        info->dct_method = JDCT_IFAST;
        info->do_fancy_upsampling = FALSE;
        info->do_block_smoothing = FALSE;
    }
    if (info->jpeg_color_space == JCS_CMYK || info->jpeg_color_space == JCS_YCCK) {
        info->out_color_space = JCS_CMYK;
    } else {
        info->out_color_space = JCS_EXT_RGBA;
    }
    jpeg_start_decompress(info);
    if (info->out_color_space == JCS_CMYK) {
        decoder->cmyk_row = (JSAMPLE *)malloc((size_t)info->output_width * 4);
        if (decoder->cmyk_row == NULL) {
            strcpy(decoder->error.message, "out of memory");
            return 1;
        }
    }
    return 0;
}

/// Reads every scanline into `rgba` (`output_height` rows of `stride` bytes), then finishes the decompression.
static int tether_jpeg_decoder_read(tether_jpeg_decoder *decoder, unsigned char *rgba, size_t stride) {
    if (setjmp(decoder->error.jump)) return 1;
    struct jpeg_decompress_struct *info = &decoder->info;
    while (info->output_scanline < info->output_height) {
        unsigned char *row = rgba + (size_t)info->output_scanline * stride;
        if (decoder->cmyk_row != NULL) {
            JSAMPROW rows[1] = {decoder->cmyk_row};
            jpeg_read_scanlines(info, rows, 1);
            // Adobe writes CMYK inverted, which is what JPEG files in the wild carry.
            for (JDIMENSION x = 0; x < info->output_width; x++) {
                const JSAMPLE *cmyk = decoder->cmyk_row + x * 4;
                unsigned int k = cmyk[3];
                row[x * 4] = (unsigned char)((cmyk[0] * k + 127) / 255);
                row[x * 4 + 1] = (unsigned char)((cmyk[1] * k + 127) / 255);
                row[x * 4 + 2] = (unsigned char)((cmyk[2] * k + 127) / 255);
                row[x * 4 + 3] = 255;
            }
        } else {
            JSAMPROW rows[1] = {row};
            jpeg_read_scanlines(info, rows, 1);
        }
    }
    jpeg_finish_decompress(info);
    return 0;
}

/// Encodes `width`×`height` pixels of `components` bytes (1: grey, 3: RGB) at `quality` (1–100) into a buffer
/// that libjpeg allocates with `malloc`; the caller frees `*output`. `message` holds `JMSG_LENGTH_MAX` bytes.
static int tether_jpeg_encode(const unsigned char *pixels, unsigned int width, unsigned int height, int components,
                              int quality, int progressive, unsigned char **output, unsigned long *output_size,
                              char *message) {
    struct jpeg_compress_struct info;
    tether_jpeg_error error;
    // Kept in memory libjpeg owns, so they survive a longjmp: the destination buffer is in `*output`.
    *output = NULL;
    *output_size = 0;
    info.err = (struct jpeg_error_mgr *)&error;
    tether_jpeg_install_errors(&error);
    if (setjmp(error.jump)) {
        strcpy(message, error.message);
        jpeg_destroy_compress(&info);
        free(*output);
        *output = NULL;
        return 1;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, output, output_size);
    info.image_width = width;
    info.image_height = height;
    info.input_components = components;
    info.in_color_space = components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    if (progressive) jpeg_simple_progression(&info);
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        JSAMPROW rows[1] = {(JSAMPROW)(pixels + (size_t)info.next_scanline * width * components)};
        jpeg_write_scanlines(&info, rows, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    return 0;
}

#endif
