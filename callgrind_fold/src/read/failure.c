/* The readers' one way to stop at an error (failure.h). */
#include "failure.h"

#include <stdarg.h>
#include <stdio.h>

void reader_fail(struct reader_failure *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->d->msg, sizeof f->d->msg, fmt, ap);
    va_end(ap);
    if (f->d->line == 0)
        f->d->line = f->r->lineno;
    longjmp(f->jump, 1);
}
