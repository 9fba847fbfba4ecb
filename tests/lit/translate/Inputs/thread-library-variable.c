/* The program reads and writes a library's thread-local variable itself (initial-exec: a GOT
 * slot with a TPOFF64 relocation against the library's symbol) in the main thread and in two
 * others, and the library reads and writes the same variable natively. */
#include <pthread.h>
#include <stdio.h>

extern __thread int libraryCounter __attribute__((tls_model("initial-exec")));
void setLibraryCounter(int value);
int libraryCounterValue(void);

static int seen[3][3];

static void *work(void *argument) {
  int index = (int)(long)argument;
  seen[index][0] = libraryCounter;   /* the initial value, in every thread */
  setLibraryCounter(100 + index);
  seen[index][1] = libraryCounter;
  libraryCounter = 200 + index;
  seen[index][2] = libraryCounterValue();
  return 0;
}

int main(void) {
  pthread_t threads[2];
  for (long i = 1; i <= 2; ++i)
    pthread_create(&threads[i - 1], 0, work, (void *)i);
  for (int i = 0; i < 2; ++i)
    pthread_join(threads[i], 0);
  work(0);
  for (int i = 0; i < 3; ++i)
    printf("thread %d: %d %d %d\n", i, seen[i][0], seen[i][1], seen[i][2]);
  return 0;
}
