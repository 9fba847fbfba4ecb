#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
int create(const char *path, int mode);
int open_read(const char *path);
int open_at(int directory, const char *path, int flags, int mode);
int set_nonblocking(int fd);
int duplicate_above(int fd, int lowest);
int pending_bytes(int fd);
static unsigned mode_of(const char *path) {
  struct stat info;
  return stat(path, &info) == 0 ? info.st_mode & 0777 : 01000;
}
int main(void) {
  umask(0);
  int fd = create("created", 0640);
  printf("create: %s, mode %o\n", fd >= 0 ? "ok" : "failed", mode_of("created"));
  close(fd);
  fd = open_read("created");
  printf("open_read: %s\n", fd >= 0 ? "ok" : "failed");
  close(fd);
  fd = open_at(AT_FDCWD, "created-at", O_CREAT | O_RDWR, 0604);
  printf("open_at: %s, mode %o\n", fd >= 0 ? "ok" : "failed", mode_of("created-at"));
  close(fd);
  int pipe_ends[2];
  if (pipe(pipe_ends) != 0)
    return 1;
  int result = set_nonblocking(pipe_ends[0]);
  printf("set_nonblocking: %d, nonblocking %d\n", result,
         (fcntl(pipe_ends[0], F_GETFL) & O_NONBLOCK) != 0);
  int copy = duplicate_above(pipe_ends[0], 40);
  printf("duplicate_above: %s, cloexec %d\n", copy >= 40 ? "ok" : "failed",
         fcntl(copy, F_GETFD) == FD_CLOEXEC);
  int written = (int)write(pipe_ends[1], "hello", 5);
  printf("pending_bytes: %d\n", written + pending_bytes(pipe_ends[0]));
  return 0;
}
