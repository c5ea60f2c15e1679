#! /usr/bin/perl
# Post-check of the --dump-folded vgtests.  For each pair of a folded file
# and the callgrind.out file it is the twin of:
#  - "FOLDED: sum equals totals" when its counts add up exactly to the
#    totals: of the callgrind.out file for the first event (or EVENT);
#    with --combine-dumps=yes, to the sum of the totals: of its parts;
#  - its lines from "main" (or a thread's "start_thread") on, keeping only
#    those whose frames all match REGEX: the deterministic part.
#
#   folded-check.pl [--event=EVENT] REGEX FOLDED1 OUT1 [FOLDED2 OUT2 ...]
#   folded-check.pl [--event=EVENT] [--pid] [--total] [--min-parts=K]
#                   REGEX --twins OUTBASE FOLDEDBASE
#
# --twins: the pairs are the files of the current directory whose names
# start with OUTBASE (callgrind.out files) or FOLDEDBASE (folded files).
# Each must have exactly one twin: the file of the other kind with the same
# suffix (.N dump part, -NN thread, ...); an empty callgrind.out file (the
# one callgrind creates at start to check it can write) is no dump and
# needs none.  "twins: each callgrind.out file has its folded twin" when
# so, else the files without one.  The pairs are reported in the order of
# their part: and thread: lines (without --twins, in the order given).
#  --pid        the names hold the pid: of their callgrind.out file: each
#               must, and it is written PID (pairs: by name, then content)
#  --total      for timing-dependent parts: one report for all pairs, the
#               lines kept summed over all files (a sum not equal to its
#               totals is still reported per file)
#  --min-parts=K  whether there are at least K pairs
use strict;
use warnings;

my ($event, $pid, $total, $min_parts, $twins, @pairs, @problems);
while (@ARGV && $ARGV[0] =~ /^--(event|pid|total|min-parts)(?:=(.*))?$/) {
    shift;
    if ($1 eq 'event') { $event = $2 }
    elsif ($1 eq 'pid') { $pid = 1 }
    elsif ($1 eq 'total') { $total = 1 }
    else { $min_parts = $2 }
}
my $re = shift;
if (@ARGV && $ARGV[0] eq '--twins') {
    (undef, my $outbase, my $foldbase) = @ARGV;
    $twins = 1;
    opendir(my $d, '.') or die ".: $!\n";
    my @files = sort readdir $d;
    my %folded = map { substr($_, length $foldbase) => $_ }
                 grep { index($_, $foldbase) == 0 } @files;
    # callgrind creates the file of the final dump early to check that it
    # can: with --separate-threads=yes it stays empty, and is no dump
    my @outs = grep { index($_, $outbase) == 0 && -s $_ } @files;
    push @problems, "no file named $outbase*\n" unless @outs;
    for my $out (@outs) {
        my $suffix = substr($out, length $outbase);
        if (defined(my $f = delete $folded{$suffix})) { push @pairs, [$f, $out] }
        else { push @problems, "$out: no folded twin $foldbase$suffix\n" }
    }
    push @problems, "$_: no callgrind.out twin\n" for sort values %folded;
    print @problems ? @problems : "twins: each callgrind.out file has its folded twin\n";
} else {
    push @pairs, [splice(@ARGV, 0, 2)] while @ARGV >= 2;
}

my (@reports, %sum_kept, $all_equal);
$all_equal = 1;
for my $pair (@pairs) {
    my ($folded, $out) = @$pair;
    my ($sum, $totals, $part, $thread, $outpid, %keep) = (0, undef, 0, 0);
    open(my $f, '<', $folded) or die "$folded: $!\n";
    while (<$f>) {
        chomp;
        my ($path, $count) = /^(.*) (\d+)$/ or die "$folded:$.: not a folded line\n";
        $sum += $count;
        # callers of main and start_thread vary with libc
        $path =~ s/^.*?;(?=(main|start_thread)(;|$))//;
        my @frames = split /;/, $path;
        next if grep { !/$re/ } @frames;
        $keep{$path} += $count;
    }
    open(my $o, '<', $out) or die "$out: $!\n";
    my $index = 0;
    while (<$o>) {
        if (/^events:\s*(.*)$/ && defined $event) {
            my @ev = split ' ', $1;
            ($index) = grep { $ev[$_] eq $event } 0 .. $#ev;
        }
        # --combine-dumps=yes: one totals: per part, the twin has the sum
        $totals = ($totals // 0) + (split)[1 + $index] if /^totals:/;
        $part = $1 if /^part:\s*(\d+)/;
        $thread = $1 if /^thread:\s*(\d+)/;
        $outpid = $1 if /^pid:\s*(\d+)/;
    }
    (my $name = $folded) =~ s/^.*\///;
    if ($pid) {
        my $n = $name =~ s/(?<!\d)\Q$outpid\E(?!\d)/PID/g;
        (my $o = $out) =~ s/^.*\///;
        $name .= " (pid $outpid not in the name)" unless $n;
        $name .= " (pid $outpid not in $o)" unless $o =~ /(?<!\d)\Q$outpid\E(?!\d)/;
    }
    my $equal = defined $totals && $sum == $totals;
    $all_equal &&= $equal;
    my $report = $equal ? "$name: sum equals totals\n"
                        : "$name: sum $sum, totals " . ($totals // 'none') . "\n";
    if ($total) {
        print $report unless $equal;
        $sum_kept{$_} += $keep{$_} for keys %keep;
        next;
    }
    $report .= "  $_ $keep{$_}\n" for sort keys %keep;
    push @reports, [$pid ? ($name, 0, 0) : ($part, $thread, $name), $report];
}
@reports = sort { $pid ? ($a->[0] cmp $b->[0] or $a->[3] cmp $b->[3])
                        : ($a->[0] <=> $b->[0] or $a->[1] <=> $b->[1]
                           or $a->[2] cmp $b->[2]) } @reports
    if $twins;
print map { $_->[3] } @reports;
if (defined $min_parts) {
    print @pairs >= $min_parts ? "at least $min_parts parts\n"
                               : "only " . scalar(@pairs) . " parts\n";
}
if ($total) {
    print $all_equal ? "each sum equals its totals\n" : "not all sums equal their totals\n";
    print "all parts:\n";
    print "  $_ $sum_kept{$_}\n" for sort keys %sum_kept;
}
