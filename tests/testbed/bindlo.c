/*
 * bindlo.c - LD_PRELOAD shim for the testbed: turns bind() to the wildcard
 * address (0.0.0.0 / ::) into a bind to loopback (127.0.0.1 / ::1).
 * Only slurmdbd needs it: 22.05 always listens on INADDR_ANY (DbdAddr is
 * only used by clients, CommunicationParameters=NoInAddrAny is ignored).
 * tests/testbed/start builds it into $TB/bindlo.so:
 *   gcc -shared -fPIC -O2 -o bindlo.so bindlo.c -ldl
 * It must not change any other bind().
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

typedef int (*bind_fn)(int, const struct sockaddr *, socklen_t);

int bind(int fd, const struct sockaddr *addr, socklen_t len);

int
bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	static bind_fn real_bind;

	if (!real_bind)
		real_bind = (bind_fn)dlsym(RTLD_NEXT, "bind");
	if (!real_bind)
		return -1;

	if (addr && addr->sa_family == AF_INET &&
	    len >= (socklen_t)sizeof(struct sockaddr_in)) {
		struct sockaddr_in a;

		memcpy(&a, addr, sizeof(a));
		if (a.sin_addr.s_addr == htonl(INADDR_ANY)) {
			a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
			return real_bind(fd, (struct sockaddr *)&a, sizeof(a));
		}
	} else if (addr && addr->sa_family == AF_INET6 &&
		   len >= (socklen_t)sizeof(struct sockaddr_in6)) {
		struct sockaddr_in6 a6;

		memcpy(&a6, addr, sizeof(a6));
		if (IN6_IS_ADDR_UNSPECIFIED(&a6.sin6_addr)) {
			a6.sin6_addr = in6addr_loopback;
			return real_bind(fd, (struct sockaddr *)&a6,
					 sizeof(a6));
		}
	}
	return real_bind(fd, addr, len);
}
