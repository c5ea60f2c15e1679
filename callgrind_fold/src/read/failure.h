/* How the readers of callgrind.out and the folded tree stop at their first
 * error: fail() writes the message (and, unless already set, the line
 * being read) into the reader's diag, then jumps back to the setjmp() of
 * the reader's entry point, which frees what it holds and returns -1.
 * One jump instead of an error return through every parsing helper keeps
 * the helpers to their grammar. */
#ifndef CF_FAILURE_H
#define CF_FAILURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>

#include "read.h"
#include "linereader.h"

struct reader_failure {
    struct diag *d;
    struct linereader *r;
    jmp_buf jump;
};

static inline _Noreturn void reader_fail(struct reader_failure *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Defined here: the whole idea is this one function, which calls nothing
 * of the readers. */
static inline _Noreturn void reader_fail(struct reader_failure *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->d->msg, sizeof f->d->msg, fmt, ap);
    va_end(ap);
    if (f->d->line == 0)
        f->d->line = f->r->lineno;
    longjmp(f->jump, 1);
}

/* fail(R, fmt, ...) for a reader R with a `struct reader_failure failure`. */
#define fail(R, ...) reader_fail(&(R)->failure, __VA_ARGS__)

#endif
