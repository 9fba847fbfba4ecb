/* Threads incrementing a shared counter with an atomic add (`lock add`). */
#include <pthread.h>
#include <stdio.h>

static long counter;

static void *work(void *argument) {
  for (int i = 0; i < 100000; ++i)
    __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
  return argument;
}

int main(void) {
  pthread_t threads[2];
  for (int i = 0; i < 2; ++i)
    pthread_create(&threads[i], 0, work, 0);
  for (int i = 0; i < 2; ++i)
    pthread_join(threads[i], 0);
  printf("%ld\n", counter);
  return 0;
}
