// C++ for callgrind_fold's --inline tests: member functions and a
// template inlined into cpp_loop, names in a namespace. Their DWARF names
// come from the linkage names on the declarations (DW_AT_specification).
namespace geo {
struct Acc {
    unsigned long v;
    inline __attribute__((always_inline)) void add(unsigned long x)
    {
        for (int i = 0; i < 8; i++)
            v = v * 31 + x + (unsigned long)i;
    }
};

template <typename T> inline __attribute__((always_inline)) T twice(T x)
{
    Acc a{x};
    a.add(x);
    a.add(x + 1);
    return a.v;
}
} // namespace geo

__attribute__((noinline)) unsigned long cpp_loop(unsigned long n)
{
    unsigned long s = 0;
    for (unsigned long i = 0; i < n; i++)
        s += geo::twice<unsigned long>(i);
    return s;
}

int main()
{
    volatile unsigned long r = cpp_loop(20000);
    return r == 1 ? 1 : 0;
}
