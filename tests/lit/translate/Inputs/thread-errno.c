/* errno is thread-local (glibc's, reached through __errno_location): two threads fail
 * differently in turn, each reading its own errno after the other failed. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static pthread_barrier_t barrier;
static int seen[2];

static void *work(void *argument) {
  int index = (int)(long)argument;
  if (index == 0) {
    open("/nonexistent/hoist", O_RDONLY);   /* ENOENT */
    pthread_barrier_wait(&barrier);
    pthread_barrier_wait(&barrier);   /* thread 1 fails meanwhile */
  } else {
    pthread_barrier_wait(&barrier);
    close(-1);   /* EBADF */
    pthread_barrier_wait(&barrier);
  }
  seen[index] = errno;
  return 0;
}

int main(void) {
  pthread_t threads[2];
  pthread_barrier_init(&barrier, 0, 2);
  errno = 0;
  for (long i = 0; i < 2; ++i)
    pthread_create(&threads[i], 0, work, (void *)i);
  for (int i = 0; i < 2; ++i)
    pthread_join(threads[i], 0);
  int mine = errno;
  printf("thread 0: %s\nthread 1: %s\nmain: %d\n", strerror(seen[0]), strerror(seen[1]), mine);
  return 0;
}
