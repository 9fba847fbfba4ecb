#include <pthread.h>
#include <stdio.h>
static void *work(void *argument) { return argument; }
int main(void) {
  pthread_t thread;
  void *result;
  pthread_create(&thread, 0, work, (void *)42);
  pthread_join(thread, &result);
  printf("%ld\n", (long)result);
  return 0;
}
