// A Rust library benchmark binary laid out as gungraun's macros lay one
// out (gungraun/gungraun, gungraun-runner: runner/mod.rs DEFAULT_TOGGLE,
// runner/lib_bench.rs executable_args), for tests/gungraun.sh: each
// benchmark function sits in a module `__gungraun_wrapper_mod`, which
// the runner's default entry point collects with
// --toggle-collect=*::__gungraun_wrapper_mod::*, and the runner starts the
// binary as `BIN --gungraun-run GROUP BENCH ITER` to run one benchmark.
use std::collections::HashMap;
use std::hint::black_box;

fn text() -> String {
    let mut t = String::new();
    for i in 0..1500 {
        t.push_str(&format!("the quick brown fox {} jumps over the lazy dog {} ", i % 37, i % 11));
    }
    t
}

fn count_words(text: &str) -> HashMap<&str, usize> {
    let mut counts = HashMap::new();
    for w in text.split_whitespace() {
        *counts.entry(w).or_insert(0) += 1;
    }
    counts
}

fn sort_words(text: &str) -> Vec<&str> {
    let mut words: Vec<&str> = text.split_whitespace().collect();
    words.sort_unstable();
    words.dedup();
    words
}

mod words {
    pub mod bench_count_words {
        pub mod __gungraun_wrapper_mod {
            #[inline(never)]
            pub fn bench_count_words(text: &str) -> usize {
                super::super::super::count_words(text).len()
            }
        }
    }
    pub mod bench_sort_words {
        pub mod __gungraun_wrapper_mod {
            #[inline(never)]
            pub fn bench_sort_words(text: &str) -> usize {
                super::super::super::sort_words(text).len()
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let bench = match args.as_slice() {
        [_, "--gungraun-run", _group, bench, _iter] => bench.parse::<u32>().unwrap_or(99),
        _ => {
            eprintln!("a benchmark binary: run by gungraun's runner (--gungraun-run GROUP BENCH ITER)");
            std::process::exit(2);
        }
    };
    let t = text(); // setup: not collected
    let n = match bench {
        0 => words::bench_count_words::__gungraun_wrapper_mod::bench_count_words(black_box(&t)),
        1 => words::bench_sort_words::__gungraun_wrapper_mod::bench_sort_words(black_box(&t)),
        _ => {
            eprintln!("no benchmark {bench}");
            std::process::exit(2);
        }
    };
    black_box(n);
}
