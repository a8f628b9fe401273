/*
 * actions_json.c - the JSON values of a limit as slurmrestd's data_parser
 * (v0.0.40+) writes and reads them: a number {"set", "infinite",
 * "number"} (infinite clears it), a TRES list [{"type", "name", "count"}]
 * from "cpu=4,gres/gpu=2", and a dotted path ("limits.max.tres.total")
 * read, written or removed in a record. Shared by the QOS and association
 * actions (actions_qos.c, actions_assoc.c). Never prints.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backends/rest/actions.h"
#include "core/base/util.h"

json_object *
sq_rest_jnum(int64_t n)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "set", json_object_new_boolean(1));
	json_object_object_add(o, "infinite", json_object_new_boolean(0));
	json_object_object_add(o, "number", json_object_new_int64(n));
	return o;
}

json_object *
sq_rest_jclear(void)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "set", json_object_new_boolean(1));
	json_object_object_add(o, "infinite", json_object_new_boolean(1));
	json_object_object_add(o, "number", json_object_new_int64(0));
	return o;
}

int
sq_rest_jlimit(json_object *v, int64_t *n)
{
	json_object *x;

	if (v == NULL)
		return -1;
	if (json_object_is_type(v, json_type_int)) {
		*n = json_object_get_int64(v);
		return 1;
	}
	if (!json_object_is_type(v, json_type_object))
		return -1;
	if (json_object_object_get_ex(v, "infinite", &x) &&
	    json_object_get_boolean(x))
		return 0;
	if (json_object_object_get_ex(v, "set", &x) &&
	    !json_object_get_boolean(x))
		return 0;
	if (!json_object_object_get_ex(v, "number", &x))
		return -1;
	*n = json_object_get_int64(x);
	return 1;
}

/* "gres/gpu" -> type "gres", name "gpu"; "cpu" -> "cpu", "" */
static void
tres_split(const char *k, size_t kl, char *type, char *name, size_t n)
{
	const char *sl = memchr(k, '/', kl);
	size_t tl = sl ? (size_t)(sl - k) : kl;

	snprintf(type, n, "%.*s", (int)tl, k);
	snprintf(name, n, "%.*s", sl ? (int)(kl - tl - 1) : 0,
		 sl ? sl + 1 : "");
}

json_object *
sq_rest_jtres_item(const char *type, const char *name, int64_t count)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "type", json_object_new_string(type));
	if (name != NULL && *name != '\0')
		json_object_object_add(o, "name", json_object_new_string(name));
	json_object_object_add(o, "count", json_object_new_int64(count));
	return o;
}

json_object *
sq_rest_jtres(const char *list, struct sq_err *err)
{
	json_object *arr = json_object_new_array();
	const char *p = list;

	while (p != NULL && *p != '\0') {
		size_t len = strcspn(p, ","), eq = strcspn(p, "=");
		char type[64], name[64], num[32], *end;
		long long c;

		if (eq >= len || len - eq - 1 >= sizeof(num) || eq >= 64)
			goto bad;
		snprintf(num, sizeof(num), "%.*s", (int)(len - eq - 1),
			 p + eq + 1);
		c = strtoll(num, &end, 10);
		if (*end != '\0' || end == num || c < -1)
			goto bad;
		tres_split(p, eq, type, name, sizeof(type));
		json_object_array_add(arr, sq_rest_jtres_item(type, name, c));
		p += len + (p[len] == ',');
	}
	return arr;
bad:
	json_object_put(arr);
	sq_err_set(err, SQ_ERR_UNSUPPORTED,
		   "a TRES count through slurmrestd is a whole number (mem in "
		   "MB, no unit): '%.60s'",
		   list);
	return NULL;
}

const char *
sq_rest_jtres_key(json_object *item, char *buf, size_t n)
{
	json_object *t = NULL, *nm = NULL;
	const char *name;

	json_object_object_get_ex(item, "type", &t);
	json_object_object_get_ex(item, "name", &nm);
	name = nm ? json_object_get_string(nm) : "";
	snprintf(buf, n, "%s%s%s", t ? json_object_get_string(t) : "",
		 name && *name ? "/" : "", name ? name : "");
	return buf;
}

/* One step of a dotted path: "limits" of "limits.max.tres". */
static const char *
step(const char *p, char *buf, size_t n)
{
	size_t l = strcspn(p, ".");

	snprintf(buf, n, "%.*s", (int)l, p);
	return p[l] == '.' ? p + l + 1 : NULL;
}

json_object *
sq_rest_jget(json_object *o, const char *path)
{
	char key[64];
	const char *p = path;

	while (o != NULL && p != NULL) {
		json_object *x = NULL;

		p = step(p, key, sizeof(key));
		if (!json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, key, &x))
			return NULL;
		o = x;
	}
	return o;
}

size_t
sq_rest_jlen(json_object *v)
{
	return json_object_is_type(v, json_type_array)
		   ? json_object_array_length(v)
		   : 0;
}

const char *
sq_rest_jstr_at(json_object *o, const char *path)
{
	json_object *x = sq_rest_jget(o, path);
	const char *v;

	if (x != NULL && json_object_is_type(x, json_type_array))
		x = sq_rest_jlen(x) > 0 ? json_object_array_get_idx(x, 0)
					: NULL;
	v = x != NULL ? json_object_get_string(x) : NULL;
	return v != NULL ? v : "";
}

int
sq_rest_jput(json_object *o, const char *path, json_object *v)
{
	char key[64];
	const char *p = path;

	for (;;) {
		json_object *x = NULL;

		p = step(p, key, sizeof(key));
		if (p == NULL) {
			json_object_object_add(o, key, v);
			return 0;
		}
		if (!json_object_object_get_ex(o, key, &x) ||
		    !json_object_is_type(x, json_type_object)) {
			x = json_object_new_object();
			json_object_object_add(o, key, x);
		}
		o = x;
	}
}

void
sq_rest_jdel(json_object *o, const char *path)
{
	char key[64];
	const char *p = path;

	while (o != NULL && json_object_is_type(o, json_type_object)) {
		json_object *x = NULL;

		p = step(p, key, sizeof(key));
		if (p == NULL) {
			json_object_object_del(o, key);
			return;
		}
		if (!json_object_object_get_ex(o, key, &x))
			return;
		o = x;
	}
}

json_object *
sq_rest_jnames(const char *list)
{
	json_object *arr = json_object_new_array();
	const char *p = list;

	while (p != NULL && *p != '\0') {
		size_t len = strcspn(p, ",");

		if (len > 0)
			json_object_array_add(
			    arr, json_object_new_string_len(p, (int)len));
		p += len + (p[len] == ',');
	}
	return arr;
}

int
sq_rest_jsame_but(json_object *before, json_object *after,
		  const char *const *paths, size_t np)
{
	json_object *b = NULL, *f = NULL;
	size_t i;
	int same;

	if (before == NULL || after == NULL ||
	    json_object_deep_copy(before, &b, NULL) != 0 ||
	    json_object_deep_copy(after, &f, NULL) != 0) {
		json_object_put(b);
		return -1;
	}
	for (i = 0; i < np; i++) {
		sq_rest_jdel(b, paths[i]);
		sq_rest_jdel(f, paths[i]);
	}
	same = json_object_equal(b, f);
	json_object_put(b);
	json_object_put(f);
	return same;
}

/* The count of TRES key ("gres/gpu") in a TRES list, or -1 if absent. */
int64_t
sq_rest_jtres_count(json_object *arr, const char *key)
{
	size_t i;

	for (i = 0; arr != NULL && json_object_is_type(arr, json_type_array) &&
		    i < sq_rest_jlen(arr);
	     i++) {
		json_object *it = json_object_array_get_idx(arr, i), *c;
		char k[140];

		if (strcasecmp(sq_rest_jtres_key(it, k, sizeof(k)), key) == 0 &&
		    json_object_object_get_ex(it, "count", &c))
			return json_object_get_int64(c);
	}
	return -1;
}

int
sq_rest_jtres_text(json_object *arr, char *buf, size_t n)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; arr != NULL && json_object_is_type(arr, json_type_array) &&
		    i < sq_rest_jlen(arr);
	     i++) {
		json_object *it = json_object_array_get_idx(arr, i), *c = NULL;
		char k[140];
		int w;

		json_object_object_get_ex(it, "count", &c);
		w = snprintf(buf + off, n - off, "%s%s=%lld", off ? "," : "",
			     sq_rest_jtres_key(it, k, sizeof(k)),
			     (long long)(c ? json_object_get_int64(c) : 0));
		if (w < 0 || (size_t)w >= n - off)
			return -1;
		off += (size_t)w;
	}
	return 0;
}
