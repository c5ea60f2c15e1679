/* Two threads besides main, for --separate-threads=yes: the workers'
 * stacks start at the thread entry, never at main. */
#include <pthread.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void spin(int n)
{
    for (int i = 0; i < n; i++)
        sink += (unsigned long)i;
}

__attribute__((noinline)) static void *worker(void *arg)
{
    spin(20000 + (int)(long)arg);
    return NULL;
}

__attribute__((noinline)) static void main_work(void)
{
    spin(5000);
}

int main(void)
{
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    main_work();
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    return 0;
}
