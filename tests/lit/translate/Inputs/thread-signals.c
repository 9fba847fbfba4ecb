/* A signal handler of the program runs in the thread the signal is sent to, on that thread's
 * handler area, and reads that thread's own __thread variable. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
static __thread int mine;
static volatile sig_atomic_t got[3];
static void handler(int number) { (void)number; got[mine] = mine + 10; }
static void *work(void *argument) {
  mine = (int)(long)argument;
  pthread_kill(pthread_self(), SIGUSR1);
  return 0;
}
int main(void) {
  signal(SIGUSR1, handler);
  pthread_t threads[2];
  for (long i = 1; i <= 2; ++i) { pthread_create(&threads[i-1], 0, work, (void *)i); pthread_join(threads[i-1], 0); }
  raise(SIGUSR1);
  printf("%d %d %d\n", got[0], got[1], got[2]);
  return 0;
}
