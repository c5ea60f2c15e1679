#! /usr/bin/perl
# Post-check of annotate-inlined: callgrind_annotate on a profile with
# cfni= lines (--read-inline-info=yes).  Prints the number of warnings
# without --inlined, then with --inlined=yes the functions listed as
# "NAME [inlined into FN]" (of FN only), whether the self costs of all
# listed functions (--threshold=100) sum to PROGRAM TOTALS, then with
# --inclusive=yes too whether FN's inclusive cost still holds its
# inlined code (it is at least the sum of its inlined entries).
#
#   annotate-inlined.pl ANNOTATE FILE FN
use strict;
use warnings;

my ($annotate, $file, $fn) = @ARGV;
my @warnings = grep { /WARNING/ } `perl $annotate --auto=no $file 2>&1`;
print "without --inlined: ", scalar(@warnings), " warnings\n";

sub functions {
    my %cost;
    my $total;
    for (`perl $annotate --auto=no --threshold=100 @_ $file`) {
        s/,//g;
        $total = $1 if /^\s*(\d+)\s.*PROGRAM TOTALS/;
        next if /PROGRAM TOTALS/;
        # "COST (PERC%)  FILE:FUNCTION [OBJECT]", OBJECT not always there
        $cost{$2} += $1 if /^\s*(\d+) \(\s*[\d.]+%\)\s+(\S.*?)(?: \[[^\[\]]*\])?$/;
    }
    return ($total, %cost);
}

my ($total, %self) = functions("--inlined=yes");
my $sum = 0;
$sum += $_ for values %self;
print "--inlined=yes: ", s/^.*?://r, "\n"
    for sort grep { / \[inlined into \Q$fn\E\]$/ } keys %self;
print "--inlined=yes: self costs ", ($sum == $total ? "sum to" : "($sum) do not sum to"),
      " PROGRAM TOTALS\n";
my (undef, %incl) = functions("--inlined=yes", "--inclusive=yes");
my $inl = 0;
$inl += $self{$_} for grep { / \[inlined into \Q$fn\E\]$/ } keys %self;
my ($key) = grep { /:\Q$fn\E$/ } keys %self;
print "--inclusive=yes: $fn ", (defined $key && $incl{$key} >= $inl + $self{$key}
      ? "includes" : "misses"), " its inlined code\n";
