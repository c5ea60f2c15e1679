/* Images made ahead on a worker thread: see prefetch.h. */
#include "prefetch.h"
#include "debugfile.h"
#include "util/util.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct job {
    char *path;
    uint64_t weight;        /* how much inflating it may take (see weigh) */
    struct dwarf_image *image;
    bool started, done, taken, weighed;
};

/* A cache entry to write. */
struct save {
    struct dwarf_images *di;
    struct dwarf_image *img;
};

struct prefetch {
    pthread_mutex_t lock;
    pthread_cond_t changed; /* a job was queued or done, or closing was set */
    struct job *jobs;       /* in queue order; never shrinks while the worker runs */
    size_t njobs, jobs_cap;
    struct save *saves;     /* entries to write when idle */
    size_t nsaves, saves_cap;
    bool running, closing, failed;
    pthread_t worker;
    /* Used by the worker only. */
    long weigh_delay_us;    /* CALLGRIND_FOLD_PREFETCH_DELAY_US, for tests */
    struct dwarf_images *images;
    char *debug_dirs;
    struct buf scratch;
};

/* A guess of the work of the object at `path`: none when it holds
 * uncompressed DWARF itself (a program built with -g), else its size
 * (its own compressed DWARF, or a separate debug file, as distributions
 * ship them compressed: inflating libc's is the slow one). */
static uint64_t weigh(const char *path, long delay_us)
{
    if (delay_us > 0) { /* tests: let the main thread claim jobs meanwhile */
        struct timespec t = {delay_us / 1000000, delay_us % 1000000 * 1000};
        nanosleep(&t, NULL);
    }
    int fd = open_regular(path);
    if (fd < 0)
        return 0;
    struct stat st;
    uint64_t size = fstat(fd, &st) == 0 ? (uint64_t)st.st_size : 0;
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    bool compressed = false;
    if (elf && debug_info_in(elf, &compressed) && !compressed)
        size = 0;
    if (elf)
        elf_end(elf);
    close(fd);
    return size;
}

/* What open_dwarf (inline.c) would inflate for the object at `path`:
 * its own compressed DWARF, or its separate debug file's. */
static struct dwarf_image *make_image(struct prefetch *pf, const char *path)
{
    int fd = open_regular(path);
    if (fd < 0)
        return NULL;
    Elf *main = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    struct dwarf_image *image = NULL;
    bool compressed = false;
    if (main && debug_info_in(main, &compressed)) {
        if (compressed)
            image = dwarf_image_open(pf->images, main);
    } else if (main) {
        int dfd = debug_file_open(pf->debug_dirs, main, path, &pf->scratch);
        Elf *debug = dfd >= 0 ? elf_begin(dfd, ELF_C_READ_MMAP, NULL) : NULL;
        if (debug) {
            image = dwarf_image_open(pf->images, debug);
            elf_end(debug);
        }
        if (dfd >= 0)
            close(dfd);
    }
    if (main)
        elf_end(main);
    close(fd);
    return image;
}

/* Writes the cache entries queued, the lock held on entry and exit. */
static void save_all(struct prefetch *pf)
{
    while (pf->nsaves > 0) {
        struct save s = pf->saves[--pf->nsaves];
        pthread_mutex_unlock(&pf->lock);
        dwarf_image_save(s.di, s.img);
        pthread_mutex_lock(&pf->lock);
    }
}

/* A profile names a few objects: scanning them is cheap (and, unlike a
 * count kept beside the flags, cannot disagree with them). */
static bool any_unstarted(const struct prefetch *pf)
{
    for (size_t i = 0; i < pf->njobs; i++)
        if (!pf->jobs[i].started)
            return true;
    return false;
}

static void *work(void *arg)
{
    struct prefetch *pf = arg;
    pthread_mutex_lock(&pf->lock);
    for (;;) {
        /* Images first, cache entries when nothing else waits. */
        while (!any_unstarted(pf) && !pf->closing) {
            if (pf->nsaves > 0)
                save_all(pf);
            else
                pthread_cond_wait(&pf->changed, &pf->lock);
        }
        if (pf->closing) { /* what was not started is not needed */
            for (size_t i = 0; i < pf->njobs; i++)
                if (!pf->jobs[i].started)
                    pf->jobs[i].started = pf->jobs[i].done = true;
            save_all(pf);
            break;
        }
        /* The heaviest first: it takes longest, and the main thread may
         * make light ones itself meanwhile (prefetch_claim). Weighing
         * opens the file: done here, once a job. */
        size_t j = SIZE_MAX;
        for (size_t i = 0; i < pf->njobs; i++) {
            struct job *c = &pf->jobs[i];
            if (c->started)
                continue;
            if (!c->weighed) {
                char *path = c->path;
                pthread_mutex_unlock(&pf->lock);
                uint64_t w = weigh(path, pf->weigh_delay_us);
                pthread_mutex_lock(&pf->lock);
                c = &pf->jobs[i]; /* jobs may have moved */
                c->weight = w;
                c->weighed = true;
                if (c->started)
                    continue; /* claimed meanwhile */
            }
            if (j == SIZE_MAX || c->weight > pf->jobs[j].weight)
                j = i;
        }
        /* The lock was let go while weighing: the choice may have been
         * claimed meanwhile, or closing set. */
        if (j == SIZE_MAX || pf->jobs[j].started || pf->closing)
            continue;
        pf->jobs[j].started = true;
        char *path = pf->jobs[j].path; /* jobs may move; the path does not */
        pthread_mutex_unlock(&pf->lock);
        struct dwarf_image *image = make_image(pf, path);
        pthread_mutex_lock(&pf->lock);
        pf->jobs[j].image = image;
        pf->jobs[j].done = true;
        if (image) {
            GROW(pf->saves, pf->saves_cap, pf->nsaves);
            pf->saves[pf->nsaves++] = (struct save){pf->images, image};
        }
        pthread_cond_broadcast(&pf->changed);
    }
    pthread_mutex_unlock(&pf->lock);
    return NULL;
}

struct prefetch *prefetch_new(const char *cache_dir, const char *debug_dirs, bool with_lines)
{
    struct prefetch *pf = xcalloc(1, sizeof *pf);
    elf_version(EV_CURRENT); /* here: the worker's libelf calls need it */
    pthread_mutex_init(&pf->lock, NULL);
    pthread_cond_init(&pf->changed, NULL);
    pf->images = dwarf_images_new(cache_dir, with_lines);
    const char *delay = getenv("CALLGRIND_FOLD_PREFETCH_DELAY_US");
    pf->weigh_delay_us = delay ? strtol(delay, NULL, 10) : 0;
    size_t n = strlen(debug_dirs) + 1;
    pf->debug_dirs = xmalloc(n);
    memcpy(pf->debug_dirs, debug_dirs, n);
    return pf;
}

/* Stops the worker after its current job. */
static void stop(struct prefetch *pf)
{
    pthread_mutex_lock(&pf->lock);
    bool running = pf->running;
    pf->closing = true;
    pthread_cond_broadcast(&pf->changed);
    pthread_mutex_unlock(&pf->lock);
    if (running)
        pthread_join(pf->worker, NULL);
    pf->running = false;
}

void prefetch_free(struct prefetch *pf)
{
    if (!pf)
        return;
    stop(pf);
    for (size_t i = 0; i < pf->njobs; i++) {
        if (!pf->jobs[i].taken)
            dwarf_image_close(pf->jobs[i].image);
        free(pf->jobs[i].path);
    }
    free(pf->jobs);
    free(pf->saves);
    dwarf_images_free(pf->images);
    free(pf->debug_dirs);
    buf_free(&pf->scratch);
    pthread_cond_destroy(&pf->changed);
    pthread_mutex_destroy(&pf->lock);
    free(pf);
}

/* The job of `path`, or NULL. Called with the lock held. */
static struct job *job_of(struct prefetch *pf, const char *path)
{
    for (size_t i = 0; i < pf->njobs; i++) /* a profile names a few objects */
        if (strcmp(pf->jobs[i].path, path) == 0)
            return &pf->jobs[i];
    return NULL;
}

void prefetch_object(struct prefetch *pf, const char *path)
{
    pthread_mutex_lock(&pf->lock);
    if (pf->closing || pf->failed || job_of(pf, path)) {
        pthread_mutex_unlock(&pf->lock);
        return;
    }
    GROW(pf->jobs, pf->jobs_cap, pf->njobs);
    size_t n = strlen(path) + 1;
    struct job *j = &pf->jobs[pf->njobs++];
    *j = (struct job){xmalloc(n), 0, NULL, false, false, false, false};
    memcpy(j->path, path, n);
    if (!pf->running) {
        /* No thread (say, a limit reached): the job is left undone, and
         * the object is opened the usual way. */
        pf->running = pthread_create(&pf->worker, NULL, work, pf) == 0;
        if (!pf->running) {
            pf->failed = true;
            j->started = j->done = true;
        }
    }
    pthread_cond_broadcast(&pf->changed);
    pthread_mutex_unlock(&pf->lock);
}

void prefetch_save(struct prefetch *pf, struct dwarf_images *di, struct dwarf_image *img)
{
    pthread_mutex_lock(&pf->lock);
    bool later = pf->running && !pf->closing;
    if (later) {
        GROW(pf->saves, pf->saves_cap, pf->nsaves);
        pf->saves[pf->nsaves++] = (struct save){di, img};
        pthread_cond_broadcast(&pf->changed);
    }
    pthread_mutex_unlock(&pf->lock);
    if (!later)
        dwarf_image_save(di, img);
}

bool prefetch_claim(struct prefetch *pf, const char *path)
{
    pthread_mutex_lock(&pf->lock);
    struct job *j = job_of(pf, path);
    if (j && !j->started) {
        j->started = j->done = true; /* no image: the caller makes it */
    }
    bool ready = !j || j->done;
    pthread_mutex_unlock(&pf->lock);
    return ready;
}

struct dwarf_image *prefetch_take(struct prefetch *pf, const char *path)
{
    pthread_mutex_lock(&pf->lock);
    struct job *j = job_of(pf, path);
    while (j && !j->done) {
        pthread_cond_wait(&pf->changed, &pf->lock);
        j = job_of(pf, path);
    }
    struct dwarf_image *image = NULL;
    if (j && !j->taken) {
        image = j->image;
        j->taken = true;
    }
    pthread_mutex_unlock(&pf->lock);
    return image;
}
