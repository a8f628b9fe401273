/*
 * err.c - filling struct sq_err. Messages are truncated, never overflow,
 * and have control characters replaced so they can go to a terminal.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/base/err.h"

void
sq_err_clear(struct sq_err *err)
{
	if (err == NULL)
		return;
	err->code = SQ_OK;
	err->msg[0] = '\0';
	err->status = 0;
}

int
sq_err_set(struct sq_err *err, enum sq_err_code code, const char *fmt, ...)
{
	va_list ap;
	char *p;

	if (err == NULL)
		return -1;
	err->code = code;
	err->status = 0;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	for (p = err->msg; *p != '\0'; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	}
	return -1;
}

const char *
sq_err_name(enum sq_err_code code)
{
	switch (code) {
	case SQ_OK:
		return "ok";
	case SQ_ERR_USAGE:
		return "usage";
	case SQ_ERR_CONNECT:
		return "connect";
	case SQ_ERR_COMMAND:
		return "command";
	case SQ_ERR_PARSE:
		return "parse";
	case SQ_ERR_UNSUPPORTED:
		return "unsupported";
	case SQ_ERR_DENIED:
		return "denied";
	case SQ_ERR_SYSTEM:
		return "system";
	}
	return "unknown";
}
