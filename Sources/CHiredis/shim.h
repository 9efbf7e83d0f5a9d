#ifndef CHIREDIS_SHIM_H
#define CHIREDIS_SHIM_H
// hiredis (Debian libhiredis-dev): the asynchronous API, attached to the service's own libuv
// loop by the adapter below.
#include <hiredis/hiredis.h>
#include <hiredis/async.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <uv.h>

// The async context's connect and disconnect callbacks take a const context; its `data`
// field (ours) is read through this helper so Swift need not cast away the const.
static inline void *native_ads_redis_context_data(const redisAsyncContext *context) {
  return context->data;
}

// hiredis's libuv adapter as Debian ships it (0.14, hiredis/adapters/libuv.h) drops every
// poll callback whose status is an error. libuv reports a socket error (POLLERR: a write to
// a server that died, a reset) exactly that way, once, and stops the poll: the connection
// then hangs with its commands in flight instead of failing them. hiredis 1.0 fixed it by
// handling the watched events on an error, so that hiredis's own read or write finds the
// error and disconnects; this adapter does the same (and frees its state when uv_poll_init
// fails). Otherwise it is the library's: hiredis calls the hooks, the poll drives hiredis.
typedef struct {
  redisAsyncContext *context;
  uv_poll_t handle;
  int events;
} native_ads_redis_poll;

static void native_ads_redis_on_poll(uv_poll_t *handle, int status, int events) {
  native_ads_redis_poll *p = (native_ads_redis_poll *)handle->data;
  int ready = status != 0 ? p->events : events;
  if (p->context != NULL && (ready & UV_READABLE)) redisAsyncHandleRead(p->context);
  if (p->context != NULL && (ready & UV_WRITABLE)) redisAsyncHandleWrite(p->context);
}

static void native_ads_redis_watch(native_ads_redis_poll *p, int events) {
  p->events = events;
  if (events) {
    uv_poll_start(&p->handle, events, native_ads_redis_on_poll);
  } else {
    uv_poll_stop(&p->handle);
  }
}

static void native_ads_redis_add_read(void *data) {
  native_ads_redis_poll *p = (native_ads_redis_poll *)data;
  native_ads_redis_watch(p, p->events | UV_READABLE);
}

static void native_ads_redis_del_read(void *data) {
  native_ads_redis_poll *p = (native_ads_redis_poll *)data;
  native_ads_redis_watch(p, p->events & ~UV_READABLE);
}

static void native_ads_redis_add_write(void *data) {
  native_ads_redis_poll *p = (native_ads_redis_poll *)data;
  native_ads_redis_watch(p, p->events | UV_WRITABLE);
}

static void native_ads_redis_del_write(void *data) {
  native_ads_redis_poll *p = (native_ads_redis_poll *)data;
  native_ads_redis_watch(p, p->events & ~UV_WRITABLE);
}

// Bytes the server has sent that hiredis has not read yet (0 when none, or on an error).
// The command timeout asks before it fails a command: timers run before polls in libuv's
// loop, so after a long iteration its reply may be waiting, unread, in the socket.
static inline int native_ads_redis_unread_bytes(const redisAsyncContext *context) {
  int unread = 0;
  if (ioctl(context->c.fd, FIONREAD, &unread) != 0) return 0;
  return unread;
}

static void native_ads_redis_on_close(uv_handle_t *handle) { free(handle->data); }

static void native_ads_redis_cleanup(void *data) {
  native_ads_redis_poll *p = (native_ads_redis_poll *)data;
  p->context = NULL;  // hiredis is freeing the context
  uv_close((uv_handle_t *)&p->handle, native_ads_redis_on_close);
}

// Watches the context's socket on `loop`; REDIS_ERR when it cannot.
static inline int native_ads_redis_attach(redisAsyncContext *ac, uv_loop_t *loop) {
  if (ac->ev.data != NULL) return REDIS_ERR;
  native_ads_redis_poll *p = (native_ads_redis_poll *)calloc(1, sizeof(*p));
  if (p == NULL) return REDIS_ERR;
  if (uv_poll_init(loop, &p->handle, ac->c.fd) != 0) {
    free(p);
    return REDIS_ERR;
  }
  p->handle.data = p;
  p->context = ac;
  ac->ev.addRead = native_ads_redis_add_read;
  ac->ev.delRead = native_ads_redis_del_read;
  ac->ev.addWrite = native_ads_redis_add_write;
  ac->ev.delWrite = native_ads_redis_del_write;
  ac->ev.cleanup = native_ads_redis_cleanup;
  ac->ev.data = p;
  return REDIS_OK;
}
#endif
