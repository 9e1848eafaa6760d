/*
 * la_files_io.c -- see la_files_io.h.
 *
 * One open per file: what is checked (the kind of file, its size) is the
 * descriptor that is then read, so swapping the name between the check and
 * the read changes nothing.  O_NONBLOCK makes the open of a FIFO return at
 * once (a blocking open waits for a writer, deaf to Ctrl-C); the fstat
 * then refuses it.  Where there is no O_NONBLOCK (Windows, for MATLAB),
 * the open blocks as the platform's does, and the fstat still refuses
 * anything that is not a regular file before a byte is read.
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#include "la_files_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#ifdef _WIN32
#include <io.h>
#include <process.h>
#define open _open
#define read _read
#define write _write
#define close _close
#define fstat _fstat
#define stat _stat
#define fsync _commit
#define getpid _getpid
#define O_RDONLY (_O_RDONLY | _O_BINARY)
#define O_WRONLY (_O_WRONLY | _O_BINARY)
#else
#include <unistd.h>
#endif
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef O_NOCTTY
#define O_NOCTTY 0
#endif

enum { STEP = 1 << 20 };

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return LA_FILE_BAD;
}

static const char *kind(unsigned mode)
{
#ifndef _WIN32
  if (S_ISFIFO(mode)) return "FIFO";
  if (S_ISSOCK(mode)) return "socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "device";
#endif
  if (S_ISDIR(mode)) return "folder";
  return "special file";
}

int la_file_open(const char *name, int *fd, size_t *size, char *err, size_t errlen)
{
  struct stat st;
  int f;
#ifdef O_NONBLOCK
  f = open(name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
#else
  f = open(name, O_RDONLY);
#endif
  *fd = -1;
  *size = 0;
  if (f < 0) return fail(err, errlen, "cannot open (%s)", strerror(errno));
  if (fstat(f, &st) != 0) {
    const int e = errno;
    close(f);
    return fail(err, errlen, "cannot open (%s)", strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    close(f);
    return fail(err, errlen, "not a regular file (a %s): refused before reading", kind((unsigned)st.st_mode));
  }
#ifdef O_NONBLOCK
  { /* a regular file never blocks; cleared so that no read returns EAGAIN */
    const int fl = fcntl(f, F_GETFL);
    if (fl < 0 || fcntl(f, F_SETFL, fl & ~O_NONBLOCK) < 0) {
      const int e = errno;
      close(f);
      return fail(err, errlen, "cannot open (%s)", strerror(e));
    }
  }
#endif
  if (st.st_size < 0 || (uint64_t)st.st_size > (uint64_t)SIZE_MAX) {
    close(f);
    return fail(err, errlen, "a file of %.0f bytes, more than this process can address", (double)st.st_size);
  }
  *fd = f;
  *size = (size_t)st.st_size;
  return LA_FILE_OK;
}

int la_file_read(int fd, void *buf, size_t n, int at_end, la_file_interrupt intr, void *ctx,
                 char *err, size_t errlen)
{
  unsigned char *p = buf, extra;
  while (n > 0) {
    const size_t want = n < STEP ? n : STEP;
    long got;
    if (intr && intr(ctx)) return LA_FILE_INTR;
    got = (long)read(fd, p, (unsigned)want);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return fail(err, errlen, "cannot read (%s)", strerror(errno));
    if (got == 0) return fail(err, errlen, "its size changed while it was read (it ended early)");
    p += got;
    n -= (size_t)got;
  }
  if (at_end) {
    long got;
    do got = (long)read(fd, &extra, 1);
    while (got < 0 && errno == EINTR);
    if (got != 0) return fail(err, errlen, "its size changed while it was read (it grew)");
  }
  return LA_FILE_OK;
}

void la_file_close(int fd)
{
  if (fd >= 0) close(fd);
}

/* the folder of name, for its sync: "." when name has none */
static void folder_of(const char *name, char *dir, size_t n)
{
  const char *slash = strrchr(name, '/');
  size_t k = slash ? (size_t)(slash - name) : 0;
  if (!slash) snprintf(dir, n, ".");
  else if (k == 0) snprintf(dir, n, "/");
  else snprintf(dir, n, "%.*s", (int)k, name);
}

static int write_all(int fd, const unsigned char *p, size_t n, la_file_interrupt intr, void *ctx,
                     char *err, size_t errlen)
{
  while (n > 0) {
    const size_t want = n < STEP ? n : STEP;
    long put;
    if (intr && intr(ctx)) return LA_FILE_INTR;
    put = (long)write(fd, p, (unsigned)want);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0)
      return fail(err, errlen, "write failed (%s)", put < 0 ? strerror(errno) : "no byte written");
    p += put;
    n -= (size_t)put;
  }
  return LA_FILE_OK;
}

int la_file_write(const char *name, const void *const *piece, const size_t *len, size_t n,
                  la_file_interrupt intr, void *ctx, char *err, size_t errlen)
{
  const size_t room = strlen(name) + 64;
  char *tmp = malloc(room), dir[4096];
  const char *slash = strrchr(name, '/');
  const size_t head = slash ? (size_t)(slash - name) + 1 : 0;
  int fd = -1, rc = LA_FILE_OK, k;
  size_t i;
  if (!tmp) return fail(err, errlen, "no memory for a temporary name");
  for (k = 0; k < 100 && fd < 0; k++) { /* a name of its own: O_EXCL, never someone else's file */
    snprintf(tmp, room, "%.*s.%s.partial-%ld-%d", (int)head, name, name + head, (long)getpid(), rand() % 1000000);
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    rc = fail(err, errlen, "cannot create a temporary file in its folder (%s)", strerror(errno));
    free(tmp);
    return rc;
  }
  for (i = 0; i < n && !rc; i++) rc = write_all(fd, piece[i], len[i], intr, ctx, err, errlen);
  if (!rc && fsync(fd) != 0) rc = fail(err, errlen, "write failed at fsync (%s)", strerror(errno));
  if (close(fd) != 0 && !rc) rc = fail(err, errlen, "write failed at close (%s)", strerror(errno));
#ifdef _WIN32
  if (!rc) remove(name); /* Windows' rename does not replace: not atomic there */
#endif
  if (!rc && rename(tmp, name) != 0) rc = fail(err, errlen, "cannot rename its temporary file (%s)", strerror(errno));
  if (rc) remove(tmp);
#ifndef _WIN32
  else { /* the rename itself made to last: sync the folder (a failure there loses nothing written) */
    int d;
    folder_of(name, dir, sizeof dir);
    d = open(dir, O_RDONLY | O_CLOEXEC);
    if (d >= 0) {
      (void)fsync(d);
      close(d);
    }
  }
#else
  (void)dir;
  (void)folder_of;
#endif
  free(tmp);
  return rc;
}
