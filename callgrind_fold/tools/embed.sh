#!/bin/sh
# embed.sh NAME FILE: FILE (a .js or .css of the flame graph) as the C
# string `const char NAME[]`, byte for byte, except that an opening
# /* ... */ comment (the file's own header, for its readers) is left out.
# Plain sh and awk, so a build needs neither xxd nor python.
set -e
name=$1
file=$2
printf '/* Generated from %s by embed.sh; edit that file instead. */\n' "$file"
printf 'const char %s[] =\n""\n' "$name"
awk '
    NR == 1 && /^\/\*/ { header = 1 }
    header { if (index($0, "*/")) header = 0; next }
    {
        # A character at a time, not gsub(): what a backslash in the
        # replacement of gsub() means differs between awks (mawk, the
        # default on Debian, wrote one backslash for two).
        out = ""
        for (i = 1; i <= length($0); i++) {
            c = substr($0, i, 1)
            if (c == "\\" || c == "\"")
                c = "\\" c
            else if (c == "?") # no trigraphs
                c = "\\?"
            out = out c
        }
        printf "\"%s\\n\"\n", out
    }
' "$file"
printf ';\n'
