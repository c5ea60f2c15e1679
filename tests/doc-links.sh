#!/bin/sh
# The docs hold together: every relative link and anchor of the Markdown
# files resolves (scripts/check-doc-links.py), and every file the Debian
# package installs as a doc (packaging/debian/docs) exists.
. "$(dirname "$0")/lib.sh"

# The checker must be able to fail: a missing file, a missing heading.
printf '# Here\n\n[a](nowhere.md), [b](#here), [c](#gone)\n' > "$scratch/broken.md"
python3 "$top/scripts/check-doc-links.py" "$scratch/broken.md" > "$scratch/broken.out"
check "doc-links: a broken link and a broken anchor are found" \
    sh -c "grep -q 'nowhere.md: no such file' '$scratch/broken.out' \
           && grep -q '#gone: no such heading' '$scratch/broken.out' \
           && ! grep -q '#here' '$scratch/broken.out'"

files=$(cd "$top" && { git ls-files '*.md' 2>/dev/null || find . -name '*.md' -not -path './build/*'; })
(cd "$top" && python3 scripts/check-doc-links.py $files) > "$scratch/links.out"
check "doc-links: every relative link of the Markdown files resolves" \
    test ! -s "$scratch/links.out" || cat "$scratch/links.out"

missing=$(cd "$top" && while read -r f; do [ -e "$f" ] || echo "$f"; done < packaging/debian/docs)
check "doc-links: every doc the package installs exists" test -z "$missing" || echo "missing: $missing"
finish
