#ifndef CHIREDIS_SHIM_H
#define CHIREDIS_SHIM_H
// hiredis (Debian libhiredis-dev): the asynchronous API and its libuv adapter, which watches
// the connection's descriptor with a uv_poll_t on the service's own loop.
#include <hiredis/hiredis.h>
#include <hiredis/async.h>
#include <hiredis/adapters/libuv.h>

// The async context's connect and disconnect callbacks take a const context; its `data`
// field (ours) is read through this helper so Swift need not cast away the const.
static inline void *native_ads_redis_context_data(const redisAsyncContext *context) {
  return context->data;
}
#endif
