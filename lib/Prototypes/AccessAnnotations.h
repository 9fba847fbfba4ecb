/* The access glibc does not state for the memory functions (their declarations carry only
   __nonnull), restated as the C standard defines them: the destination is written for as
   many bytes as the count says, the source read. */
#include <stddef.h>

void *memset(void *dest, int byte, size_t length) __attr_access((__write_only__, 1, 3));
void *memcpy(void *restrict dest, const void *restrict src, size_t length)
    __attr_access((__write_only__, 1, 3));
void *memmove(void *dest, const void *src, size_t length) __attr_access((__write_only__, 1, 3));
void *mempcpy(void *restrict dest, const void *restrict src, size_t length)
    __attr_access((__write_only__, 1, 3));
void bzero(void *dest, size_t length) __attr_access((__write_only__, 1, 2));
void explicit_bzero(void *dest, size_t length) __attr_access((__write_only__, 1, 2));
