/*
 * la_ws.h -- workspaces described once.
 *
 * A workspace is a list macro LIST(X) of entries X(field, a, b, c): the
 * field is an array of a * b * c real_t elements.  From the one list come
 *   - the struct:        struct { LIST(LA_WS_FIELD) }
 *   - its total size:    la_ws_total ... LIST(LA_WS_COUNT) (checked arithmetic:
 *                        0 on overflow, so the caller answers LA_ENOMEM)
 *   - its carving:       LIST(LA_WS_CARVE) out of one buffer of that size
 * so the size and the carving cannot drift.  The extents are expressions in
 * the local variables of the function that expands the list.
 */
#ifndef LA_WS_H
#define LA_WS_H

#include "la_size.h"

#define LA_WS_FIELD(f, a, b, c) real_t *f;
/* expands to "&& <count fits> && <total fits>" after an initial 1 */
#define LA_WS_COUNT(f, a, b, c) \
  && la_mul4((a), (b), (c), 1, &la_ws_n_) && la_add(la_ws_total_, la_ws_n_, &la_ws_total_)
#define LA_WS_CARVE(f, a, b, c) w->f = la_ws_buf_; la_ws_buf_ += (a) * (b) * (c);

/* Total elements of LIST into *total (1) or 0 on overflow. */
#define LA_WS_TOTAL(LIST, total)                                  \
  do {                                                            \
    ptrdiff_t la_ws_n_ = 0, la_ws_total_ = 0;                     \
    *(total) = (1 LIST(LA_WS_COUNT)) ? la_ws_total_ : -1;         \
  } while (0)

/* Point the fields of the struct that the local pointer `w` points to into
 * buf (of at least the LA_WS_TOTAL size); buf then points after them. */
#define LA_WS_CARVE_ALL(LIST, buf)                             \
  do {                                                            \
    real_t *la_ws_buf_ = (buf);                                   \
    LIST(LA_WS_CARVE)                                             \
    (buf) = la_ws_buf_;                                           \
  } while (0)

#endif
