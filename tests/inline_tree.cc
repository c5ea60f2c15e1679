// The C++ program of tests/inline-tree.sh: every function has one call
// path; a member function and a template are inlined into run, and tally
// is called from inlined code.  The stores to sink keep the loops.
namespace geo {
static volatile unsigned long sink;

__attribute__((noinline)) unsigned long tally(unsigned long x)
{
    sink = x;
    return x & 3;
}

struct Acc {
    unsigned long v;
    inline __attribute__((always_inline)) void add(unsigned long x)
    {
        for (int i = 0; i < 8; i++) {
            v = (v << 7 | v >> 57) + x + (unsigned long)i;
            sink = v;
        }
    }
};

template <typename T> inline __attribute__((always_inline)) T twice(T x)
{
    Acc a{x};
    a.add(x);
    a.add(x + 1);
    return a.v + tally(a.v);
}
} // namespace geo

__attribute__((noinline)) unsigned long run(unsigned long n)
{
    unsigned long s = 0;
    for (unsigned long i = 0; i < n; i++)
        s += geo::twice<unsigned long>(i ^ s);
    return s;
}

int main()
{
    volatile unsigned long r = run(2000);
    return r == 1 ? 1 : 0;
}
