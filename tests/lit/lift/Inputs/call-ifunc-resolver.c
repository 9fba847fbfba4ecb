/* Calls the C library's IFUNC resolver at the file offset argv[1] (a link-time address) in
   this process, and prints the link-time address of the implementation it returns: what the
   dynamic linker chose for this CPU, found without dlsym. glibc's x86-64 resolvers take no
   arguments. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
  struct link_map *map = NULL;
  if (!libc || dlinfo(libc, RTLD_DI_LINKMAP, &map) != 0)
    return 1;
  unsigned long resolver = strtoul(argv[1], NULL, 16);
  void *(*resolve)(void) = (void *(*)(void))(map->l_addr + resolver);
  printf("0x%lx\n", (unsigned long)resolve() - map->l_addr);
  return 0;
}
