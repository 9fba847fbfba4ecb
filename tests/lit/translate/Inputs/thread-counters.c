/* Four threads each sum into their own __thread counter (zero-initialized: .tbss) and a shared
 * mutex-protected total; each changes its copy of an initialized __thread variable (.tdata) and
 * reads a __thread pointer whose initial value is an address (relocated in a PIE). Results are
 * printed in join order; main's own copies must be untouched. Built with -fstack-protector-all,
 * so every function reads the canary at %fs:0x28. */
#include <pthread.h>
#include <stdio.h>

static __thread long counter;
static __thread long bias = 1000;
static const char greeting[] = "hello";
static __thread const char *label = greeting;
static __thread char buffer[64] __attribute__((aligned(64)));   /* a 64-byte aligned block */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long total;

struct result {
  int index;
  long counter, bias;
  const char *label;
  int aligned;
};

static void *work(void *argument) {
  struct result *result = argument;
  for (long i = 1; i <= 1000 * (result->index + 1); ++i) {
    counter += i;
    pthread_mutex_lock(&lock);
    total += i;
    pthread_mutex_unlock(&lock);
  }
  bias += result->index;
  snprintf(buffer, sizeof buffer, "%s %d", label, result->index);
  result->counter = counter;
  result->bias = bias;
  result->label = buffer[0] ? label : "empty";
  result->aligned = ((unsigned long)buffer & 63) == 0;
  return argument;
}

int main(void) {
  pthread_t threads[4];
  struct result results[4];
  for (int i = 0; i < 4; ++i) {
    results[i].index = i;
    if (pthread_create(&threads[i], 0, work, &results[i]) != 0)
      return 1;
  }
  for (int i = 0; i < 4; ++i) {
    void *back;
    pthread_join(threads[i], &back);
    struct result *result = back;
    printf("thread %d: counter %ld bias %ld label %s aligned %d\n", result->index,
           result->counter, result->bias, result->label, result->aligned);
  }
  printf("main: counter %ld bias %ld label %s buffer '%s' total %ld\n", counter, bias, label,
         buffer, total);
  return 0;
}
