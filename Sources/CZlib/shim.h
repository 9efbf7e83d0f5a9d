#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
#include <zlib.h>

// deflateInit2 and inflateInit are macros (they pass the library version and the size of
// z_stream), which Swift cannot call: these wrappers can be.
static inline int czlib_deflateInit2(z_streamp stream, int level, int windowBits, int memLevel,
                                     int strategy) {
  return deflateInit2(stream, level, Z_DEFLATED, windowBits, memLevel, strategy);
}

static inline int czlib_inflateInit(z_streamp stream) {
  return inflateInit(stream);
}
#endif
