/* pthread_once from four threads runs its initializer once; the key destructor it registers
 * runs in every thread that set a value (one of them leaves by pthread_exit); an atexit handler
 * registered from a thread runs at exit; a C11 thread (thrd_create) returns its result. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <threads.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_key_t key;
static int initialized;
static int destroyed;   /* a bit per thread */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void destroy(void *value) {
  int index = *(int *)value;
  pthread_mutex_lock(&lock);
  destroyed |= 1 << index;
  pthread_mutex_unlock(&lock);
  free(value);
}

static void initialize(void) {
  ++initialized;
  pthread_key_create(&key, destroy);
}

static void bye(void) { printf("atexit handler from thread 1\n"); }

static void *work(void *argument) {
  int index = (int)(long)argument;
  pthread_once(&once, initialize);
  int *value = malloc(sizeof *value);
  *value = index;
  pthread_setspecific(key, value);
  if (index == 1)
    atexit(bye);
  if (index == 2)
    pthread_exit((void *)(long)(index * 10));
  return (void *)(long)(index * 10);
}

static int c11(void *argument) { return *(int *)argument * 3; }

int main(void) {
  pthread_t threads[4];
  for (long i = 0; i < 4; ++i)
    pthread_create(&threads[i], 0, work, (void *)i);
  for (int i = 0; i < 4; ++i) {
    void *result;
    pthread_join(threads[i], &result);
    printf("thread %d returned %ld\n", i, (long)result);
  }
  printf("initialized %d times, destroyed %#x\n", initialized, destroyed);
  thrd_t thread;
  int seven = 7, result = 0;
  if (thrd_create(&thread, c11, &seven) != thrd_success)
    return 1;
  thrd_join(thread, &result);
  printf("C11 thread returned %d\n", result);
  return 0;
}
