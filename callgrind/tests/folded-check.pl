#! /usr/bin/perl
# Post-check of the --dump-folded vgtests.  For each pair of a folded file
# and the callgrind.out file it is the twin of:
#  - "FOLDED: sum equals totals" when its counts add up exactly to the
#    totals: of the callgrind.out file for the first event (or EVENT);
#  - its lines from "main" (or a thread's "start_thread") on, keeping only
#    those whose frames all match REGEX: the deterministic part.
#
#   folded-check.pl [--event=EVENT] REGEX FOLDED1 OUT1 [FOLDED2 OUT2 ...]
use strict;
use warnings;

my $event;
$event = $1 if $ARGV[0] =~ /^--event=(.*)$/ and shift;
my $re = shift;
while (@ARGV >= 2) {
    my ($folded, $out) = splice(@ARGV, 0, 2);
    my ($sum, $totals, @keep) = (0);
    open(my $f, '<', $folded) or die "$folded: $!\n";
    while (<$f>) {
        chomp;
        my ($path, $count) = /^(.*) (\d+)$/ or die "$folded:$.: not a folded line\n";
        $sum += $count;
        # callers of main and start_thread vary with libc
        $path =~ s/^.*?;(?=(main|start_thread)(;|$))//;
        my @frames = split /;/, $path;
        next if grep { !/$re/ } @frames;
        push @keep, "$path $count";
    }
    open(my $o, '<', $out) or die "$out: $!\n";
    my $index = 0;
    while (<$o>) {
        if (/^events:\s*(.*)$/ && defined $event) {
            my @ev = split ' ', $1;
            ($index) = grep { $ev[$_] eq $event } 0 .. $#ev;
        }
        $totals = (split)[1 + $index] if /^totals:/;
    }
    (my $name = $folded) =~ s/^.*\///;
    print defined $totals && $sum == $totals
        ? "$name: sum equals totals\n"
        : "$name: sum $sum, totals " . ($totals // 'none') . "\n";
    print "  $_\n" for sort @keep;
}
