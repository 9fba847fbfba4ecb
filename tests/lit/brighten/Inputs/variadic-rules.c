#include <fcntl.h>
#include <sys/ioctl.h>
/* open reads its mode only when its flags create a file. */
int create(const char *path, int mode) { return open(path, O_CREAT | O_WRONLY | O_TRUNC, mode); }
int open_read(const char *path) { return open(path, O_RDONLY); }
/* Flags the caller does not know: the mode is passed, read or not. */
int open_at(int directory, const char *path, int flags, int mode) {
  return openat(directory, path, flags, mode);
}
/* fcntl reads an argument unless its command takes none; ioctl reads one. */
int set_nonblocking(int fd) {
  int flags = fcntl(fd, F_GETFL);
  return flags < 0 ? -1 : fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}
int duplicate_above(int fd, int lowest) { return fcntl(fd, F_DUPFD_CLOEXEC, lowest); }
int pending_bytes(int fd) {
  int count = -1;
  return ioctl(fd, FIONREAD, &count) < 0 ? -1 : count;
}
