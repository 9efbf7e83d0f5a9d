#ifndef CLIBUV_SHIM_H
#define CLIBUV_SHIM_H
#include <uv.h>
#include <sys/syscall.h>
#include <unistd.h>

// pidfd_open(2) has no libc wrapper in every glibc, and syscall(2) is variadic, which Swift
// cannot call: a descriptor that becomes readable when process `pid` ends, or -1 (errno set).
static inline int native_ads_pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
  return (int)syscall(SYS_pidfd_open, pid, 0);
#else
  errno = ENOSYS;
  return -1;
#endif
}
#endif
