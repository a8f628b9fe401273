/*
 * none.h - the two numbers that are not a number: SQ_NONE, "not set",
 * and SQ_INFINITE, UNLIMITED/INFINITE. The parsers (core/base/parse.c)
 * write them and every record (core/model/model.h) holds them.
 */
#ifndef SQ_NONE_H
#define SQ_NONE_H

#include <stdint.h>

#define SQ_NONE ((int64_t)-1)
#define SQ_INFINITE ((int64_t)-2)

#endif
