// Standard I/O and system calls.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int files_demo(const char *path) {
  FILE *file = tmpfile();
  if (!file)
    return -1;
  for (int i = 0; i < 10; ++i)
    fprintf(file, "line %d %s\n", i, path);
  fputs("end\n", file);
  fputc('!', file);
  fflush(file);
  rewind(file);
  char line[128];
  int total = 0;
  while (fgets(line, sizeof line, file))
    total += (int)strlen(line);
  fseek(file, 0, SEEK_SET);
  int number = 0;
  if (fscanf(file, "line %d", &number) == 1)
    total += number;
  total += (int)ftell(file);
  char *dynamic = NULL;
  size_t size = 0;
  rewind(file);
  while (getline(&dynamic, &size, file) > 0)
    total += dynamic[0];
  free(dynamic);
  fclose(file);
  struct stat status;
  if (stat(path, &status) == 0)
    total += (int)(status.st_size & 0xff);
  int fd = open(path, O_RDONLY);
  if (fd >= 0) {
    char bytes[16];
    total += (int)read(fd, bytes, sizeof bytes);
    lseek(fd, 0, SEEK_SET);
    close(fd);
  } else {
    fprintf(stderr, "%s: %s\n", path, strerror(errno));
  }
  char cwd[256];
  if (getcwd(cwd, sizeof cwd))
    total += (int)strlen(cwd);
  total += access(path, R_OK) == 0;
  perror(NULL);
  return total;
}
