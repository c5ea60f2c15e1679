/* The HTML report's hot lines (-f html): for each part its hottest
 * functions by self cost of the default event, and their self costs by
 * source line in every event, with the lines' text where the source can
 * be read (source.h). Per function, summed over its callers: the stacks'
 * line entries (stacks/model.h) say nothing of paths.
 *
 * The page's JSON gets, per part, "hot": {"fns": [...]} (or "why" when
 * the part has no line costs), each function
 *   {"f": name id, "self": [per event], "lines": [[file, line, cost per
 *    event...], ...], "rest": {"n": lines, "cost": [...]}, "partial":
 *    [events whose lines do not sum to the self cost], "notes": [...]}
 * and once per page "sources": [{"path", "found", "lines", "text":
 * [[first line, text, text...], ...], "notes": [...]} or {"path", "why"}]
 * ("file" above is an index of it). Lines: the costliest HOT_MAX_LINES
 * of a function, in file and line order; "rest" sums the others, so a
 * function's lines and rest sum to its self cost in every event whose
 * lines are not "partial". */
#ifndef CF_WRITE_HOTLINES_H
#define CF_WRITE_HOTLINES_H

#include <stddef.h>

#include "report.h"
#include "reporttree.h"
#include "textout.h"

#define HOT_MAX_FUNCTIONS 10
#define HOT_MIN_PERMILLE 10     /* of the part's total: 1% */
#define HOT_MAX_LINES 100
#define HOT_CONTEXT 3           /* lines of text each side of a hot line */

struct hot_page;

struct hot_page *hot_page_new(const struct report *r, const struct render_options *ro);
/* Part `index`'s hot functions chosen and their names interned in
 * `names` (before the page writes its names). */
void hot_part_choose(struct hot_page *h, size_t index, const struct report_part *p,
                     struct report_names *names);
/* ,"hot":{...} of part `index`. */
void hot_part_put(struct textout *o, const struct hot_page *h, size_t index);
/* ,"limits":{...},"sources":[...]: every file of the parts' hot lines,
 * each read once. */
void hot_sources_put(struct textout *o, struct hot_page *h);
void hot_page_free(struct hot_page *h);

#endif
