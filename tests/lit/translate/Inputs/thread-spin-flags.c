/* Threads that wait for each other on C11 acquire loads and publish through release stores,
   which x86-64 compiles to plain `mov`s: the worker spins on a flag with nothing else in the
   loop (no call, no atomic instruction), then the two hand a turn back and forth 2,000 times,
   each publishing two plain words before the release store of the turn. A load the optimizer
   hoisted out of the spin would hang; a store it moved past the release would show as a
   wrong sum. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

enum { Rounds = 2000 };

static int started;
static int turn;   /* 0: main writes, 1: the worker reads */
static long first, second;
static long workerSum;

static void waitForTurn(int wanted) {
  for (unsigned spins = 1; __atomic_load_n(&turn, __ATOMIC_ACQUIRE) != wanted; ++spins)
    if (spins % 4096 == 0)
      sched_yield();   /* lets a descheduled partner run on a busy machine */
}

static void *work(void *argument) {
  while (!__atomic_load_n(&started, __ATOMIC_ACQUIRE))
    ;
  for (int i = 0; i < Rounds; ++i) {
    waitForTurn(1);
    workerSum += first * 3 + second;
    __atomic_store_n(&turn, 0, __ATOMIC_RELEASE);
  }
  return argument;
}

int main(void) {
  pthread_t worker;
  pthread_create(&worker, 0, work, 0);
  __atomic_store_n(&started, 1, __ATOMIC_RELEASE);
  long expected = 0;
  for (int i = 0; i < Rounds; ++i) {
    waitForTurn(0);
    first = i;
    second = i * 7L;
    expected += i * 3L + i * 7L;
    __atomic_store_n(&turn, 1, __ATOMIC_RELEASE);
  }
  pthread_join(worker, 0);
  printf("worker sum %ld, expected %ld\n", workerSum, expected);
  return 0;
}
