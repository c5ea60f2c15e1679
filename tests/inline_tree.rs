// The Rust program of tests/inline-tree.sh: every function has one call
// path; mix and rotate are inlined into run (with core's rotate_left,
// wrapping_add and the range iterator), tally is called from inlined code.
#[inline(always)]
fn rotate(x: u64) -> u64 { x.rotate_left(7) ^ 0x9e37 }
#[inline(always)]
fn mix(x: u64, n: u64) -> u64 {
    let mut s = x;
    for i in 0..n { s = rotate(s ^ i).wrapping_add(0x9e3779b9); }
    s.wrapping_add(tally(s))
}
#[inline(never)]
fn tally(x: u64) -> u64 { std::hint::black_box(x) & 3 }
#[inline(never)]
fn run(rounds: u64) -> u64 {
    let mut s = 1u64;
    for _ in 0..rounds { s = s.wrapping_add(mix(s, 50)); }
    s
}
fn main() { std::process::exit((run(std::hint::black_box(200)) & 1) as i32); }
