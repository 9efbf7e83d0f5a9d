#ifndef CHTTPPARSER_SHIM_H
#define CHTTPPARSER_SHIM_H
// Node's former HTTP/1.1 parser (Debian libhttp-parser-dev, 2.9): requests are parsed by the
// library (request line, headers, chunked bodies, keep-alive, upgrades); these helpers read
// the parser's bit fields, which Swift sees as plain properties only with some pain.
#include <http_parser.h>

static inline enum http_errno native_ads_http_errno(const http_parser *parser) {
  return HTTP_PARSER_ERRNO(parser);
}

static inline int native_ads_http_upgrade(const http_parser *parser) { return parser->upgrade; }

static inline enum http_method native_ads_http_method(const http_parser *parser) {
  return (enum http_method)parser->method;
}
#endif
