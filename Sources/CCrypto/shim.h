#ifndef CCRYPTO_SHIM_H
#define CCRYPTO_SHIM_H
// OpenSSL's libcrypto (Debian libssl-dev): the SHA-1 and base64 of the WebSocket handshake
// (RFC 6455, 4.2.2), taken from the library rather than written by hand.
#include <openssl/evp.h>
#include <openssl/sha.h>
#endif
