#!/bin/sh
# Install CodSpeed's Node benchmark integration, pinned, from the npm
# registry into $BUILD/npm-harness (once; later runs reuse it) and print
# that directory.  Exits non-zero with the reason on stderr when node or
# npm is missing or the registry cannot be reached.
#
#   @codspeed/tinybench-plugin 5.7.1, @codspeed/core 5.7.1, tinybench 6.2.3
#
# Usage: npm-harness.sh [DIR]   (default $BUILD/npm-harness)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
dir=${1:-$BUILD/npm-harness}

plugin=5.7.1 core=5.7.1 tinybench=6.2.3

command -v node > /dev/null 2>&1 || { echo "npm-harness: node is not installed" >&2; exit 1; }
command -v npm > /dev/null 2>&1 || { echo "npm-harness: npm is not installed" >&2; exit 1; }

# Installed already, with the pinned versions?
version_of() { # the installed version of package $1
    node -e 'try { console.log(require(process.argv[1]).version) } catch (e) {}' \
        "$dir/node_modules/$1/package.json" 2>/dev/null
}
installed() {
    [ "$(version_of @codspeed/tinybench-plugin)" = "$plugin" ] || return 1
    [ "$(version_of @codspeed/core)" = "$core" ] || return 1
    [ "$(version_of tinybench)" = "$tinybench" ] || return 1
    # the native addon that talks to callgrind
    ls "$dir"/node_modules/@codspeed/core/prebuilds/linux-x64/*.node > /dev/null 2>&1 \
        || [ -n "$(find "$dir/node_modules/@codspeed/core" -name '*.node' 2>/dev/null | head -n 1)" ]
}

if ! installed; then
    mkdir -p "$dir" || exit 1
    cat > "$dir/package.json" <<EOF
{
  "name": "callgrind-fold-npm-harness",
  "private": true,
  "description": "CodSpeed's Node integration, pinned, for callgrind-fold's tests",
  "dependencies": {
    "@codspeed/core": "$core",
    "@codspeed/tinybench-plugin": "$plugin",
    "tinybench": "$tinybench"
  }
}
EOF
    log=$dir/npm-install.log
    # Few, short retries: an unreachable registry fails in seconds, not minutes.
    if ! (cd "$dir" && timeout 300 npm install --no-audit --no-fund --save-exact \
            --no-update-notifier --fetch-retries=1 --fetch-retry-mintimeout=1000 \
            --fetch-retry-maxtimeout=5000 > "$log" 2>&1); then
        why=$(grep -m 1 -E 'npm (error|ERR!) (code|errno|network|[0-9]{3} )' "$log" | sed 's/^npm \(error\|ERR!\) //')
        echo "npm-harness: npm install from $(npm config get registry 2>/dev/null) failed: ${why:-see $log}" >&2
        exit 1
    fi
    installed || { echo "npm-harness: npm install did not give the pinned versions (see $log)" >&2; exit 1; }
fi
echo "$dir"
