#! /usr/bin/perl
# Post-check of threadids: for each callgrind.out or folded tree FILE, one
# line per thread section: part, the thread's label in IDS (the file
# threadids.c writes: "<label> <kernel thread id>"; "not a thread of the
# run" for any other id) and its desc: Thread name: line, if any.  A FILE
# without thread: lines says so once.
#
#   threadids-check.pl IDS FILE...
use strict;
use warnings;

my $ids = shift;
open(my $f, '<', $ids) or die "$ids: $!\n";
my %label = map { my ($l, $id) = split; ($id => $l) } <$f>;
for my $file (@ARGV) {
    open(my $in, '<', $file) or die "$file: $!\n";
    (my $name = $file) =~ s/^.*\///;
    my ($part, $section, @lines) = (0);
    while (<$in>) {
        chomp;
        if (/^part:\s*(\d+)/) { $part = $1 }
        elsif (/^thread:\s*(\d+)$/) {
            $section = "$name part $part: " . ($label{$1} // "not a thread of the run ($1)");
            push @lines, $section;
        }
        elsif (/^desc: Thread name: (.*)$/) {
            $lines[-1] .= defined $section ? ", name \"$1\"" : "";
            push @lines, "$name part $part: a name outside a thread section" unless defined $section;
        }
        elsif (/^(events|positions):/) { undef $section }
    }
    print @lines ? map { "$_\n" } @lines : "$name: no thread sections\n";
}
