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
        gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); gsub(/\?/, "\\?")
        printf "\"%s\\n\"\n", $0
    }
' "$file"
printf ';\n'
