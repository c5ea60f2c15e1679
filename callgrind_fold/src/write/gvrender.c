/* DOT text drawn by graphviz: libgvc when built with it, else the dot
 * program (gvrender.h). */
#include "gvrender.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef HAVE_GVC
#include <gvc.h>

#if defined(__SANITIZE_ADDRESS__)
/* Graphviz and the font libraries it loads keep caches for the life of
 * the process, which LeakSanitizer reports at exit: not ours to fix. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libgvc.so\nleak:libcgraph.so\nleak:libgvplugin_\nleak:libfontconfig.so\n"
           "leak:libcairo.so\nleak:libpango\nleak:libglib-2.0.so\nleak:libgobject-2.0.so\n"
           "leak:libharfbuzz.so\nleak:libfreetype.so\nleak:libexpat.so\nleak:libltdl.so\n";
}
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
    return "print_suppressions=0";
}
#endif

/* 0 when rendered; -1 when the library could not do it. */
static int render_with_library(const char *dot, size_t len, const char *format, FILE *out)
{
    (void)len;
    GVC_t *gvc = gvContext();
    if (!gvc)
        return -1;
    int rc = -1;
    Agraph_t *g = agmemread(dot);
    if (g) {
        if (gvLayout(gvc, g, "dot") == 0) {
            char *data = NULL;
            unsigned int size = 0; /* size_t in graphviz >= 3 */
            if (gvRenderData(gvc, g, format, &data, &size) == 0 && data) {
                rc = fwrite(data, 1, size, out) == size ? 0 : -2;
                gvFreeRenderData(data);
            }
            gvFreeLayout(gvc, g);
        }
        agclose(g);
    }
    gvFreeContext(gvc);
    return rc;
}
#endif

extern char **environ;

#define NO_DOT "this format needs graphviz: no libgvc in this build (or " \
               "CALLGRIND_FOLD_NO_GVC is set) and no 'dot' program in PATH; " \
               "install graphviz, or use -f dot and render it elsewhere"

/* Runs "dot -T<format>" with the DOT text on its standard input and out
 * as its standard output. */
static int render_with_program(const char *dot, size_t len, const char *format, FILE *out,
                               char *err, size_t errlen)
{
    int fds[2];
    if (fflush(out) != 0)
        return -1;
    if (pipe(fds) != 0) {
        snprintf(err, errlen, "cannot run dot: %s", strerror(errno));
        return -2;
    }
    char type[64];
    snprintf(type, sizeof type, "-T%s", format);
    char *argv[] = {"dot", type, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&fa, fileno(out), STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, fds[1]);
    pid_t pid;
    int rc = posix_spawnp(&pid, "dot", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[0]);
    if (rc != 0) {
        close(fds[1]);
        snprintf(err, errlen, "%s", rc == ENOENT ? NO_DOT : strerror(rc));
        return -2;
    }
    /* dot may exit early on bad input: keep SIGPIPE from killing us. */
    struct sigaction ign = {.sa_handler = SIG_IGN}, old;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, &old);
    bool write_failed = false;
    for (size_t done = 0; done < len;) {
        ssize_t n = write(fds[1], dot + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            write_failed = true;
            break;
        }
        done += (size_t)n;
    }
    close(fds[1]);
    sigaction(SIGPIPE, &old, NULL);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            snprintf(err, errlen, "dot: %s", strerror(errno));
            return -2;
        }
    /* 127: the child could not run dot, where posix_spawnp cannot say
     * so itself (under qemu-user, for one) */
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        snprintf(err, errlen, "%s", NO_DOT);
        return -2;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || write_failed) {
        snprintf(err, errlen, "dot failed (exit status %d)",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        return -2;
    }
    return 0;
}

int gv_render(const char *dot, size_t len, const char *format, FILE *out, char *err,
              size_t errlen)
{
#ifdef HAVE_GVC
    const char *off = getenv("CALLGRIND_FOLD_NO_GVC");
    if (!off || !*off) {
        int rc = render_with_library(dot, len, format, out);
        if (rc == 0)
            return 0;
        if (rc == -2)
            return -1;
    }
#endif
    return render_with_program(dot, len, format, out, err, errlen);
}
