// A word count (HashMap, iterators, sort_by, formatted output): the Rust
// program of the --inline tests (tests/inline_tests.py, and the project's
// tests/rust-inline.sh), built with --crate-name wc.
//
// normalize is #[inline(always)], so every build, a debug one too, has an
// inlined frame of the program's own below count_words; -O inlines
// count_words into main as well. The standard library's code (hashbrown's
// entry, the sort, formatting) is inlined into both, with std's debug
// info as rustup ships it.
use std::collections::HashMap;
use std::io::Write;

#[inline(always)]
fn normalize(w: &str) -> String {
    w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase()
}

fn count_words(text: &str) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    for w in text.split_whitespace() {
        let w = normalize(w);
        if !w.is_empty() {
            *counts.entry(w).or_insert(0) += 1;
        }
    }
    counts
}

fn main() {
    let mut text = String::new();
    for i in 0..2000 {
        text.push_str(&format!("The quick brown fox {} jumps over the lazy dog {}. ",
                               i % 37, i % 11));
    }
    let counts = count_words(&text);
    let mut v: Vec<_> = counts.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let out = std::io::stdout();
    let mut out = out.lock();
    for (w, c) in v.iter().take(10) {
        writeln!(out, "{} {}", w, c).unwrap();
    }
}
