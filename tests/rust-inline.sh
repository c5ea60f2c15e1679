#!/bin/sh
# callgrind_fold --inline on Rust programs as rustc's own toolchain builds
# them: the word count of callgrind_fold/tests/progs/inline_rust.rs
# (--crate-name wc) built
#   - by cargo (no dependencies, offline): the release profile with
#     debug = 1 and debug = 2, the dev profile;
#   - by rustc: -O with -g and with -C debuginfo=1, no -O, LTO (fat and
#     thin), -C split-debuginfo=unpacked and =packed (DWARF 4, rustc's
#     default, and 5);
# and profiled with --dump-instr=yes. For each build: callgrind_fold does
# not report the program (its addresses match its symbol table), leaves
# under 1% of the program's self cost unexpanded, shows the program's
# own inlined frames (wc::normalize below wc::count_words's code) and the
# standard library's (rustup ships std with its debug info).
# Then a program rebuilt after it was profiled (another opt-level): still
# reported as a different build, and not expanded.
. "$(dirname "$0")/lib.sh"
fold=${CALLGRIND_FOLD:-$PREFIX/bin/callgrind_fold}
src=$top/callgrind_fold/tests/progs/inline_rust.rs
skip() { echo "SKIP: rust-inline ($*)"; exit 0; }
command -v rustc > /dev/null 2>&1 || skip "rustc is not installed: https://rustup.rs or apt-get install rustc cargo"
rustc --version

# expanded NAME BINARY: profile it and check the frames (see above).
# (lib.sh's check sets $b: the builds are $b.)
expanded() {
    b=$1 bin=$2 out=$scratch/$1.out
    inline_profile rust-inline "$b" "$bin" || return
    check "rust-inline: $b: callgrind_fold --inline exits 0" [ $fold_rc -eq 0 ] \
        || sed 's/^/  /' "$scratch/$b.err"
    self=$(self_cost "$bin" "$out") lost=$(unexpanded "$bin" "$scratch/$b.err")
    check "rust-inline: $b: the program is not reported" \
        sh -c '! grep -F -q "$1:" "$2"' - "$bin" "$scratch/$b.err" \
        || grep -F "$bin:" "$scratch/$b.err" | sed 's/^/  /'
    check "rust-inline: $b: under 1% of its self cost ($self) left unexpanded ($lost)" \
        awk -v l="$lost" -v s="$self" 'BEGIN { exit !(s > 0 && l * 100 < s) }'
    check "rust-inline: $b: its own inlined frames (wc::normalize [inlined])" \
        grep -q ';wc::normalize \[inlined\]' "$scratch/$b.folded"
    std=$(grep -o '[^;]*\[inlined\]' "$scratch/$b.folded" | sort -u |
          grep -c -E '^(<)?(std|core|alloc|hashbrown)::')
    check "rust-inline: $b: the standard library's inlined frames ($std names)" [ "$std" -ge 5 ]
}

# rustc builds, with the flags cargo passes for the same settings.
r=$scratch/rustc
mkdir -p "$r"
build() { # NAME FLAGS...: "$r/NAME", or a failure
    b=$1
    shift
    (cd "$r" && rustc --crate-name wc --edition 2021 "$@" -o "$r/$b" "$src") \
        > "$scratch/$b.build" 2>&1
    check "rust-inline: $b: rustc $* builds" [ $? -eq 0 ] || sed 's/^/  /' "$scratch/$b.build"
}
build release -C opt-level=3 -C debuginfo=2 && expanded release "$r/release"
build release-debuginfo1 -C opt-level=3 -C debuginfo=1 && expanded release-debuginfo1 "$r/release-debuginfo1"
build debug -C debuginfo=2 && expanded debug "$r/debug"
build lto-fat -C opt-level=3 -C debuginfo=2 -C lto=fat && expanded lto-fat "$r/lto-fat"
build lto-thin -C opt-level=3 -C debuginfo=2 -C lto=thin && expanded lto-thin "$r/lto-thin"
build split-unpacked -C opt-level=3 -C debuginfo=2 -C split-debuginfo=unpacked \
    && expanded split-unpacked "$r/split-unpacked"
build split-packed -C opt-level=3 -C debuginfo=2 -C split-debuginfo=packed \
    && check "rust-inline: split-packed: rustc wrote its package" [ -f "$r/split-packed.dwp" ] \
    && expanded split-packed "$r/split-packed"
if rustc -C dwarf-version=5 --print cfg > /dev/null 2>&1; then
    build split-packed-dwarf5 -C opt-level=3 -C debuginfo=2 -C split-debuginfo=packed \
        -C dwarf-version=5 && expanded split-packed-dwarf5 "$r/split-packed-dwarf5"
else
    echo "SKIP: rust-inline: split-packed-dwarf5 (this rustc has no -C dwarf-version)"
fi

# cargo's profiles (CARGO_PROFILE_<NAME>_DEBUG sets a profile's debug)
if command -v cargo > /dev/null 2>&1; then
    pkg=$scratch/wc
    mkdir -p "$pkg/src"
    cp "$src" "$pkg/src/main.rs"
    printf '[package]\nname = "wc"\nversion = "0.1.0"\nedition = "2021"\n' > "$pkg/Cargo.toml"
    for v in release:1 release:2 dev:2; do
        profile=${v%:*} debug=${v#*:} dir=release
        [ "$profile" = dev ] && dir=debug
        b=cargo-$profile-debug$debug
        upper=$(echo "$profile" | tr a-z A-Z)
        (cd "$pkg" && env "CARGO_PROFILE_${upper}_DEBUG=$debug" CARGO_TARGET_DIR="$pkg/target-$b" \
            cargo build --offline --quiet --profile "$profile") > "$scratch/$b.build" 2>&1
        if check "rust-inline: $b: cargo build --profile $profile (debug = $debug) builds" [ $? -eq 0 ]; then
            expanded "$b" "$pkg/target-$b/$dir/wc"
        else
            sed 's/^/  /' "$scratch/$b.build"
        fi
    done
else
    echo "SKIP: rust-inline: cargo profiles (cargo is not installed)"
fi

# A rebuilt program: the profile's addresses are not the file's.
if [ -x "$r/release" ] && [ -s "$scratch/release.out" ]; then
    build rebuilt -C opt-level=1 -C debuginfo=2
    cp "$r/rebuilt" "$r/release"
    "$fold" --inline --inline-cache=no "$scratch/release.out" > "$scratch/rebuilt.folded" \
        2> "$scratch/rebuilt.err"
    check "rust-inline: rebuilt after profiling: reported as a different build" \
        grep -F -q "$r/release: its addresses do not match its symbol table (a different build of the file?)" \
        "$scratch/rebuilt.err" || sed 's/^/  /' "$scratch/rebuilt.err"
    check "rust-inline: rebuilt after profiling: not expanded" \
        sh -c '! grep -q "wc::[a-z_]* \[inlined\]" "$1"' - "$scratch/rebuilt.folded"
else
    fail "rust-inline: rebuilt after profiling: not run (no release build and profile, see above)"
fi
finish
