/* A pool of two worker threads that take jobs from a queue under a mutex and condition
 * variables (pointers to malloc'd ones, as zstd's pool has them) and signal each job's end on
 * its own condition variable. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
typedef struct { void (*fn)(void *); void *arg; } Job;
typedef struct { pthread_mutex_t *m; pthread_cond_t *pop, *push; Job q[4]; size_t head, tail; int shutdown; int busy; } Pool;
static pthread_mutex_t *newMutex(void) { pthread_mutex_t *m = malloc(sizeof *m); pthread_mutex_init(m, 0); return m; }
static pthread_cond_t *newCond(void) { pthread_cond_t *c = malloc(sizeof *c); pthread_cond_init(c, 0); return c; }
static void *poolThread(void *opaque) {
  Pool *p = opaque;
  for (;;) {
    pthread_mutex_lock(p->m);
    while (p->head == p->tail && !p->shutdown) pthread_cond_wait(p->pop, p->m);
    if (p->shutdown && p->head == p->tail) { pthread_mutex_unlock(p->m); return opaque; }
    Job job = p->q[p->head % 4]; p->head++; p->busy++;
    pthread_cond_signal(p->push);
    pthread_mutex_unlock(p->m);
    job.fn(job.arg);
    pthread_mutex_lock(p->m); p->busy--; pthread_cond_signal(p->push); pthread_mutex_unlock(p->m);
  }
}
typedef struct { pthread_mutex_t *m; pthread_cond_t *c; int done; long result; long n; } Work;
static void compute(void *a) { Work *w = a; long s = 0; for (long i = 0; i < w->n; ++i) s += i; char *buf = malloc(100); free(buf);
  pthread_mutex_lock(w->m); w->result = s; w->done = 1; pthread_cond_signal(w->c); pthread_mutex_unlock(w->m); }
int main(void) {
  Pool *p = calloc(1, sizeof *p); p->m = newMutex(); p->pop = newCond(); p->push = newCond();
  pthread_t t[2]; for (int i = 0; i < 2; ++i) pthread_create(&t[i], 0, poolThread, p);
  Work w[6];
  for (int i = 0; i < 6; ++i) { w[i].m = newMutex(); w[i].c = newCond(); w[i].done = 0; w[i].n = 1000 * (i + 1);
    pthread_mutex_lock(p->m); while (p->tail - p->head >= 4) pthread_cond_wait(p->push, p->m);
    p->q[p->tail % 4] = (Job){compute, &w[i]}; p->tail++; pthread_cond_signal(p->pop); pthread_mutex_unlock(p->m); }
  for (int i = 0; i < 6; ++i) { pthread_mutex_lock(w[i].m); while (!w[i].done) pthread_cond_wait(w[i].c, w[i].m); pthread_mutex_unlock(w[i].m); printf("%ld\n", w[i].result); }
  pthread_mutex_lock(p->m); p->shutdown = 1; pthread_cond_broadcast(p->pop); pthread_mutex_unlock(p->m);
  for (int i = 0; i < 2; ++i) pthread_join(t[i], 0);
  return 0;
}
