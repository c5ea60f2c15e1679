/* stacks/ presentation: how frames read and where pictures start.
 *
 * Takes: function names (from a profile's names) and a part's stacks.
 * Hands on: frame texts (frames.c: clone folding, ";" escaping,
 * "[object]"), names of code without a symbol by its object (addrname.c:
 * "ld-linux-x86-64.so.2+0x1ab70", made by the reader of callgrind.out),
 * readable names and labels (shortname.c, symlabel.c:
 * --frame=short), and stacks renamed (stacks_shorten) or re-rooted at
 * the user's code (roots.c), to the folding (fold.h), the pipeline and
 * the writers.  Depends on the model (model.h) and util/; shortname.c
 * also renames the call arcs (callarcs.h) with the frames. */
#ifndef CF_STACKS_PRESENT_H
#define CF_STACKS_PRESENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "util/util.h"

/* ---- frames.c ---- */
/* How a function is printed as one frame of a folded stack. */

struct frame_style {
    bool keep_clones;  /* keep "fn'2" and "fn'caller" as callgrind wrote them */
    bool with_object;  /* append " [object-basename]" */
    /* --frame=short: readable names (shortname.c). Not applied by
     * frame_append but to the whole output at once (stacks_shorten),
     * since paths are made relative to a root common to all frames. */
    bool short_names;
    bool short_templates; /* and C++ templates shortened */
};

/* Length of the function name without callgrind's clone suffix: the
 * recursion mark "'N" and the caller context "'caller'caller2..." both
 * start at the first "'" outside brackets, so that a quote inside a C++
 * template argument such as foo<'a'> is not mistaken for one. */
size_t frame_base_length(const char *name, size_t len);

/* The base name of an object's path (after its last '/'), or the whole
 * path when that is empty; *base_len is set to its length. */
const char *object_base_name(const char *object, size_t len, size_t *base_len);

/* Append the frame for a function: its (possibly folded) name, ";"
 * replaced by ":" so it cannot split the stack, and the object's base
 * name in brackets when asked for and known. */
void frame_append(struct buf *out, const char *name, size_t name_len,
                  const char *object, size_t object_len,
                  const struct frame_style *style);

/* ---- addrname.c ---- */
/* Code without a symbol: callgrind names it by its offset in its object,
 * "0x000000000001ab70", with " [PLT]", " [Data]", " [BSS]" or " [GOT]"
 * after it outside .text.  Code of a known object is named by the
 * object's base name and the offset, as perf names it:
 * "ld-linux-x86-64.so.2+0x1ab70", "libc.so.6+0x26040 [PLT]". */

/* Appends the name by object of a function named by its address alone
 * (and a clone suffix: "0x1ab70'2" -> "ld.so+0x1ab70'2"; hex lowercase,
 * no leading zeros) in `object`, a file: not "" or "???" (no object),
 * nor a perf map ("*.map"), whose JIT code keeps the map's names.  A
 * quote or an unclosed bracket of the base name, which would move the
 * clone suffix, is written '_'.  False, out unchanged, for any other
 * name or object. */
bool addr_name_by_object(struct buf *out, const char *name, size_t len, const char *object,
                         size_t object_len);
/* A frame of code no object and no map knows: named by its address
 * alone ("0x..."), maybe followed by a clone suffix or " [object]". */
bool addr_name_unknown(const char *text, size_t len);
/* A function name without a symbol: "0x..." or "OBJ+0x..." (without its
 * clone suffix). */
bool addr_name_no_symbol(const char *name, size_t len);

/* ---- shortname.c ---- */
/* Readable frame names: perf-map names of JIT code (V8, CPython) reduced
 * to the function and a short location ("JS:*fib /home/u/p/work.js:5:13"
 * -> "fib  work.js:5"), paths relative to the root all frames share; C++
 * names kept, or with `templates` shortened ("std::vector<...>::
 * push_back(...)"). The rules, kind by kind, are in shortname.c's
 * opening comment. Two steps: every name of a profile is noted (for the
 * root), then each is made. */

struct shortnames {
    bool templates;  /* C++ names as "std::vector<...>::push_back(...)" */
    bool have_root;  /* an absolute path was noted */
    struct buf root; /* the directory every noted path is in, with its '/' */
    struct buf out;  /* the last name made */
    bool jit;        /* the last name made was a perf-map name */
};

void shortnames_init(struct shortnames *sn, bool templates);
void shortnames_free(struct shortnames *sn);
/* Takes the name's path, if it has one, into the root. */
void shortnames_note(struct shortnames *sn, const char *name, size_t len);
/* The short form of a frame name: never with ';', never empty (unless
 * the name is). Sets *out_len; valid until the next call. */
const char *shortnames_make(struct shortnames *sn, const char *name, size_t len,
                            size_t *out_len);
/* symlabel.c: the label of a C++ or Rust function name (not a perf-map
 * name) as a person writes it: "std::_Rb_tree::_M_insert_unique",
 * "Index::add", "wc::count_words", "HashMap::rustc_entry" (the rules are
 * in symlabel.c's opening comment). Appended to out; false, with out
 * unchanged, when the name's brackets do not balance. */
bool symbol_label(struct buf *out, const char *name, size_t len);
/* Every frame of the n stacks (a profile, and its --diff base) replaced
 * by its short name, with one root for all, its raw name kept
 * (stacks_frame_raw): stacks that become alike are merged, their counts
 * summed in every column (perf-map frames that read alike, such as a JS
 * function's tiers, become one; a merged frame keeps the source of its
 * first raw frame). With `keep_apart` (pictures and pprof, which show a
 * raw name beside each frame), other frames that read alike but are
 * different functions (C++ overloads, Rust instances) stay apart, by
 * their keys (stacks_frame_key); without it (folded text, where a frame
 * is its text) they become one. `arcs`, when not NULL, holds frame ids
 * of s[0] (-f dot, --colors=obj): they are renamed too, arcs that become
 * alike summed. */
struct callarcs;
void stacks_shorten(struct stacks *const *s, size_t n, bool templates, bool keep_apart,
                    struct callarcs *arcs);

/* ---- roots.c ---- */
/* Pictures start where the user's code starts: every stack of s (every
 * column) loses the frames below the user's first frame and starts with
 * one frame `base` (the process) instead. The user's first frame: for a
 * benchmark (a part a client request triggered) the one above CodSpeed's
 * __codspeed_root_frame__, for a whole program `main` or a thread's
 * start routine (above start_thread), else the deepest frame every stack
 * with a cost passes through. Stacks that become alike are summed: every
 * column's total stays. */
void stacks_root_at_user_code(struct stacks *s, bool benchmark, const char *base,
                              size_t base_len);
/* The same stacks, every column, rebuilt without the frames no stack
 * with a cost has when those are most of them (a part's stacks, after a
 * reader made the frames of every function of its input there). */
void stacks_compact(struct stacks *s);

#endif
