/*
 * la_files_io.h -- a tensor file opened once and read from that descriptor
 * (plain C; the MEX part is la_files_mex.c).  See la_files_io.c.
 */
#ifndef LA_FILES_IO_H
#define LA_FILES_IO_H

#include <stddef.h>

/* Results of the functions below. */
enum { LA_FILE_OK = 0, LA_FILE_BAD = -1, LA_FILE_INTR = -2 };

/* Ctrl-C: nonzero when the caller wants the read to stop (NULL: never). */
typedef int (*la_file_interrupt)(void *ctx);

/* Open name for reading, once: with O_NONBLOCK (a FIFO does not block the
 * open), then fstat on the descriptor: anything but a regular file (FIFO,
 * device, socket, folder, a link to one) is refused, naming what it is.
 * Then O_NONBLOCK is cleared.  *fd and *size (bytes, from that fstat) are
 * set on success; err holds the reason otherwise. */
int la_file_open(const char *name, int *fd, size_t *size, char *err, size_t errlen);

/* Read exactly n bytes of fd from the current position into buf, in steps
 * of at most 1 MiB, asking intr between steps (so Ctrl-C is seen within a
 * step's time).  A file that ends early is LA_FILE_BAD ("its size changed
 * while it was read"); with at_end, so is a byte after the n. */
int la_file_read(int fd, void *buf, size_t n, int at_end, la_file_interrupt intr, void *ctx,
                 char *err, size_t errlen);

/* Close fd (errors on a read-only descriptor do not matter). */
void la_file_close(int fd);

/* Write the n pieces (piece[i], len[i] bytes) as file name, whole or not
 * at all: into a new temporary file in name's folder (created exclusively,
 * mode 0666 less the umask), every write checked, fsync, the close
 * checked, then renamed over name, and the folder synced so that the
 * rename lasts.  intr is asked between 1 MiB writes.  On any failure
 * (LA_FILE_BAD with the reason, or LA_FILE_INTR) the temporary is removed
 * and name is left as it was. */
int la_file_write(const char *name, const void *const *piece, const size_t *len, size_t n,
                  la_file_interrupt intr, void *ctx, char *err, size_t errlen);

#endif
