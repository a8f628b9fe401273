/*
 * parse.h - helpers shared by the text parsers: splitting delimited lines,
 * Slurm's numbers, durations and times, and scontrol's Key=Value lines.
 *
 * All functions are pure; none allocates. They accept Slurm's spellings
 * of "nothing" ("", "N/A", "(null)", "None", "Unknown") and of "no limit"
 * ("UNLIMITED", "INFINITE").
 */
#ifndef SQ_PARSE_H
#define SQ_PARSE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Split line in place at delim into at most max fields; the last field
 * keeps the rest of the line (delimiters included), so a free-text field
 * placed last may contain the delimiter. Returns the number of fields.
 */
int sq_split(char *line, char delim, char **fields, int max);

/* Next line of a buffer: *pos advances; returns NULL at the end. The
 * returned line is NUL-terminated in place ('\n' and '\r' removed). */
char *sq_next_line(char **pos);

/* Lines in text (a last line without '\n' counts), to size a snapshot. */
size_t sq_count_lines(const char *text);

/* Is s one of Slurm's spellings of "not set"? */
int sq_is_none(const char *s);

/* Integer with an optional K/M/G/T suffix (scaled to M for memory when
 * mem is set). "" -> SQ_NONE; UNLIMITED -> SQ_INFINITE. -1 on garbage. */
int sq_parse_int(const char *s, int64_t *out);
int sq_parse_mem_mb(const char *s, int64_t *out);

/* Slurm durations: [days-]hours:minutes:seconds, minutes:seconds,
 * minutes; into seconds. UNLIMITED -> SQ_INFINITE, N/A -> SQ_NONE. */
int sq_parse_duration(const char *s, int64_t *seconds);

/* A time printed with SLURM_TIME_FORMAT=%s (epoch), or ISO
 * YYYY-MM-DDTHH:MM:SS (local time); "Unknown"/"N/A"/"None" -> SQ_NONE. */
int sq_parse_time(const char *s, int64_t *epoch);

/* Format seconds as Slurm does: D-HH:MM:SS, HH:MM:SS or M:SS. */
void sq_fmt_duration(int64_t seconds, char *buf, size_t n);

/*
 * Iterate over the Key=Value pairs of one `scontrol -o show` line. Values
 * may contain spaces (Reason=Not responding [slurm@2024-...]): a value ends
 * where the next " Key=" starts. Modifies line in place.
 * Returns 1 with key and val set, 0 at the end.
 */
int sq_kv_next(char **pos, char **key, char **val);
/* p without its leading and trailing blanks (spaces, tabs, a CR): the
 * end is cut in place. */
char *sq_trim(char *p);

/* Is s an identifier-like Key in scontrol output? (letters, digits, _ : / .) */
int sq_is_key(const char *s, size_t n);

#endif
