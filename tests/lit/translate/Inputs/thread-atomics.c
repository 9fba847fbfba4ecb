/* Four threads each add 1,000,000 to five counters through the program's own atomic
   instructions: a locked add (__atomic_fetch_add), a compare-and-swap loop
   (__sync_bool_compare_and_swap), a `lock cmpxchg` spin lock and an `xchg` spin lock
   (__atomic_exchange_n) each guarding a plain counter, and a locked 16-bit add. A lost update
   shows in the totals. The spin loops yield, so a descheduled holder gets to run on a busy
   machine. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

enum { Threads = 4, Increments = 1000000 };

static long fetchAdded;
static long compareSwapped;
static int casLock;
static long casGuarded;
static int exchangeLock;
static long exchangeGuarded;
static unsigned short narrow;

static void *work(void *argument) {
  for (int i = 0; i < Increments; ++i) {
    __atomic_fetch_add(&fetchAdded, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&narrow, 1, __ATOMIC_SEQ_CST);

    long seen;
    do
      seen = __atomic_load_n(&compareSwapped, __ATOMIC_RELAXED);
    while (!__sync_bool_compare_and_swap(&compareSwapped, seen, seen + 1));

    int expected = 0;
    while (!__atomic_compare_exchange_n(&casLock, &expected, 1, 0, __ATOMIC_ACQUIRE,
                                        __ATOMIC_RELAXED)) {
      expected = 0;
      sched_yield();
    }
    ++casGuarded;
    __atomic_store_n(&casLock, 0, __ATOMIC_RELEASE);

    while (__atomic_exchange_n(&exchangeLock, 1, __ATOMIC_ACQUIRE))
      sched_yield();
    ++exchangeGuarded;
    __atomic_store_n(&exchangeLock, 0, __ATOMIC_RELEASE);
  }
  return argument;
}

int main(void) {
  pthread_t threads[Threads];
  for (int i = 0; i < Threads; ++i)
    pthread_create(&threads[i], 0, work, 0);
  for (int i = 0; i < Threads; ++i)
    pthread_join(threads[i], 0);
  printf("fetch_add %ld\n", fetchAdded);
  printf("compare_and_swap %ld\n", compareSwapped);
  printf("cmpxchg lock %ld\n", casGuarded);
  printf("xchg lock %ld\n", exchangeGuarded);
  printf("16-bit add %u\n", narrow);
  return 0;
}
