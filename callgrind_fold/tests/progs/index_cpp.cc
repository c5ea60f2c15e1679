// A word index (std::map, std::sort of std::string, a lambda, a class
// template): the C++ program of the label tests (real names, as g++ and
// clang++ make them and callgrind demangles them: tests/shortnames.txt)
// and of the project's tests/inline-linkers.sh (Index::add is inlined
// into main, always).
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace text {
template <typename T> struct Counter {
    std::map<T, unsigned> seen;
    __attribute__((noinline)) unsigned bump(const T &key) { return ++seen[key]; }
};
} // namespace text

struct Index {
    std::map<std::string, int> words;
    text::Counter<std::string> firsts;
    __attribute__((always_inline)) void add(const std::string &w)
    {
        words.insert({w, 0}).first->second++;
        firsts.bump(w.substr(0, 1));
    }
};

static std::string word(unsigned i)
{
    std::string s;
    for (unsigned k = 0; k < 6; k++)
        s.push_back(static_cast<char>('a' + (i * 7 + k * 13) % 26));
    return s;
}

int main()
{
    Index ix;
    std::vector<std::string> v;
    for (unsigned i = 0; i < 3000; i++) {
        v.push_back(word(i * 2654435761u));
        ix.add(v.back());
    }
    std::sort(v.begin(), v.end());
    auto longer = [](const std::string &a, const std::string &b) { return a.size() > b.size(); };
    std::stable_sort(v.begin(), v.end(), longer);
    std::printf("%zu %zu %s\n", ix.words.size(), v.size(), v[0].c_str());
    return 0;
}
