#! /usr/bin/perl
# Post-check of the harness tests: for each callgrind.out (or folded tree)
# FILE, one line per part (and thread section) with its trigger, its
# desc: lines other than the Timerange and cache descriptions, whether
# summary: equals totals: (callgrind.out), and the functions of REGEX
# with a self cost, with the first event's cost of each when --costs.
# --sorted: the parts' reports without file names, sorted (for files
# named by pid).  Threads are numbered 1, 2, ... in the order of their
# kernel ids (thread: lines), over all FILEs: the ids change every run.
# "desc: Spawned pid: N" is written "desc: Spawned pid: (a FILE's pid)"
# when one of the FILEs is the profile of process N (its pid: line).
#
#   parts-check.pl [--costs] [--sorted] REGEX FILE...
use strict;
use warnings;

my ($costs, $sorted, @blocks) = (0, 0);
while (@ARGV && $ARGV[0] =~ /^--(costs|sorted)$/) {
    shift;
    if ($1 eq 'costs') { $costs = 1 } else { $sorted = 1 }
}
my $re = shift;
my (@all, %lwpids, %pids);
for my $file (@ARGV) {
    open(my $f, '<', $file) or die "$file: $!\n";
    (my $name = $file) =~ s/^.*\///;
    my (@parts, $p, $fn, %names);
    while (<$f>) {
        chomp;
        $pids{$1} = 1 if /^pid:\s*(\d+)/;
        if (/^part:\s*(\d+)/) {
            $p = { part => $1, descs => [], fns => {} };
            push @parts, $p;
        }
        next unless $p;
        if (/^thread:\s*(\d+)/) { $p->{thread} = $1; $lwpids{$1} = 1 }
        elsif (/^desc: (.*)$/) {
            push @{$p->{descs}}, $1 unless $1 =~ /^(Timerange|I1 cache|D1 cache|LL cache):/;
        }
        elsif (/^summary:\s*(.*?)\s*$/) { $p->{summary} = $1 }
        elsif (/^totals:\s*(.*?)\s*$/) { $p->{totals} = $1 }
        elsif (/^fn=(?:\((\d+)\))?\s*(.*)$/) {
            my $n = $2 ne '' ? $2 : $names{$1};
            $names{$1} = $n if defined $1 && $2 ne '';
            $fn = $n;
        }
        elsif (/^cfn=\((\d+)\)\s*(.+)$/) { $names{$1} = $2 }
        elsif (/^calls=/) { <$f> }   # the call's cost line is not self cost
        elsif (defined $fn && /^[+\-*\d]/ && $fn =~ $re) {
            my @v = split;
            $p->{fns}{$fn} += $v[1] // 0;
        }
    }
    push @all, map { [$name, $_] } @parts;
}
my %nth;
@nth{sort { $a <=> $b } keys %lwpids} = (1 .. keys %lwpids);
for (@all) {
    my ($name, $p) = @$_;
    my $where = ($sorted ? "" : "$name ") . "part $p->{part}"
                . (defined $p->{thread} ? " thread $nth{$p->{thread}}" : "");
    my $block = "$where\n";
    for (@{$p->{descs}}) {
        my $d = s/^Spawned pid: (\d+)$/"Spawned pid: " . ($pids{$1} ? "(a FILE's pid)" : "$1, no FILE's pid")/er;
        $block .= "  desc: $d\n";
    }
    if (defined $p->{summary}) {
        my @s = split ' ', $p->{summary};
        my @t = split ' ', $p->{totals} // '';
        push @t, 0 while @t < @s;
        push @s, 0 while @s < @t;
        $block .= "  summary: " . ("@s" eq "@t" ? "equals totals" : "$p->{summary}, totals $p->{totals}") . "\n";
    }
    for (sort keys %{$p->{fns}}) {
        $block .= "  $_" . ($costs ? " $p->{fns}{$_}" : "") . "\n";
    }
    push @blocks, $block;
}
print $sorted ? sort @blocks : @blocks;
