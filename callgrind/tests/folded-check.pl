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
#  --addr       frames named by address (0x...) are written 0x? and kept
#               if REGEX matches 0x? (but not as the root of a path)
#  --by-part    the lines kept of each part of a folded tree, after a line
#               "part N [thread T] (TRIGGER)", instead of their sum
# Threads are numbered 1, 2, ... in the order their kernel ids (thread:
# lines) first appear: the ids change every run.
use strict;
use warnings;

my ($event, $pid, $total, $min_parts, $by_part, $addr, $twins, @pairs, @problems);
my %thread_nos;   # see thread_no
while (@ARGV && $ARGV[0] =~ /^--(event|pid|total|min-parts|by-part|addr)(?:=(.*))?$/) {
    shift;
    if ($1 eq 'event') { $event = $2 }
    elsif ($1 eq 'addr') { $addr = 1 }
    elsif ($1 eq 'by-part') { $by_part = 1 }
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
    my ($equal, $part_lines) = (undef, '');
    my $keep_path = sub {
        my ($path, $count) = @_;
        # callers of main and start_thread vary with libc
        $path =~ s/^.*?;(?=(main|start_thread)(;|$))//;
        $path =~ s/\b0x[0-9a-f]+\b/0x?/g if $addr;
        return if $addr && $path =~ /^0x\?/;   # the loader's entry, by libc
        my @frames = split /;/, $path;
        $keep{$path} += $count unless grep { !/$re/ } @frames;
    };
    my @outs = read_sections($out);
    for my $o (@outs) {
        $part = $o->{part};
        $thread = $o->{thread};
        $outpid = $o->{pid};
    }
    if (is_tree($folded)) {
        # the tree: every part, thread and event against callgrind.out's
        my @trees = read_tree($folded);
        my %by_key = map { ("$_->{part}/$_->{thread}" => $_) } @outs;
        my @problems;
        push @problems, scalar(@trees) . " parts, callgrind.out has " . scalar(@outs)
            if @trees != @outs;
        for my $t (@trees) {
            my $o = $by_key{"$t->{part}/$t->{thread}"};
            my $where = "part $t->{part}" . ($t->{thread} ? " thread $t->{thread}" : "");
            if (!$o) { push @problems, "$where: not in callgrind.out"; next }
            my @ev = @{$t->{events}};
            my $index = 0;
            if (defined $event) { ($index) = grep { $ev[$_] eq $event } 0 .. $#ev }
            for my $i (0 .. $#ev) {
                my ($j) = grep { $o->{events}[$_] eq $ev[$i] } 0 .. $#{$o->{events}};
                my $want = defined $j ? ($o->{totals}[$j] // 0) : 'none';
                my $got = $t->{sums}[$i] // 0;
                my $written = $t->{totals}[$i] // 0;
                push @problems, "$where $ev[$i]: sum $got, totals $want"
                    unless $got eq $want;
                push @problems, "$where $ev[$i]: sum $got, its own totals: $written"
                    unless $got == $written;
            }
            for my $path (keys %{$t->{paths}}) {
                my $c = $t->{paths}{$path}[$index] // 0;
                $keep_path->($path, $c) if $c;
            }
            if ($by_part) {
                $part_lines .= "events: @ev\n" unless $part_lines;
                $part_lines .= "$where ($t->{trigger})\n";
                $part_lines .= "  $_ $keep{$_}\n" for sort keys %keep;
                %keep = ();
            }
        }
        $equal = !@problems;
        $sum = join("; ", @problems);
    } else {
        open(my $f, '<', $folded) or die "$folded: $!\n";
        while (<$f>) {
            chomp;
            my ($path, $count) = /^(.*) (\d+)$/ or die "$folded:$.: not a folded line\n";
            $sum += $count;
            $keep_path->($path, $count);
        }
        # --combine-dumps=yes: one totals: per part, the text has the sum
        for my $o (@outs) {
            my $index = 0;
            ($index) = grep { $o->{events}[$_] eq $event } 0 .. $#{$o->{events}}
                if defined $event;
            $totals = ($totals // 0) + ($o->{totals}[$index] // 0) if $o->{totals};
        }
        $equal = defined $totals && $sum == $totals;
    }
    (my $name = $folded) =~ s/^.*\///;
    if ($pid) {
        my $n = $name =~ s/(?<!\d)\Q$outpid\E(?!\d)/PID/g;
        (my $o = $out) =~ s/^.*\///;
        $name .= " (pid $outpid not in the name)" unless $n;
        $name .= " (pid $outpid not in $o)" unless $o =~ /(?<!\d)\Q$outpid\E(?!\d)/;
    }
    $all_equal &&= $equal;
    my $report = $equal ? "$name: sum equals totals\n"
                        : "$name: sum $sum, totals " . ($totals // 'none') . "\n";
    if ($total) {
        print $report unless $equal;
        $sum_kept{$_} += $keep{$_} for keys %keep;
        next;
    }
    $report .= "  $_ $keep{$_}\n" for sort keys %keep;
    $report .= $part_lines;
    push @reports, [$pid ? ($name, 0, 0) : ($part, $thread, $name), $report];
}
@reports = sort { $pid ? ($a->[0] cmp $b->[0] or $a->[3] cmp $b->[3])
                        : ($a->[0] <=> $b->[0] or $a->[1] <=> $b->[1]
                           or $a->[2] cmp $b->[2]) } @reports
    if $twins;
print map { $_->[3] } @reports;

# Is <file> a folded tree (--dump-folded=yes)?
sub is_tree {
    my ($file) = @_;
    open(my $f, '<', $file) or die "$file: $!\n";
    my $first = <$f> // '';
    return $first eq "# callgrind folded tree\n";
}

# The number of the thread of kernel id <lwpid>, in order of appearance.
sub thread_no {
    my ($lwpid) = @_;
    my $next = 1 + keys %thread_nos;
    return $thread_nos{$lwpid} //= $next;
}

# The parts of a folded tree: part, thread, events, paths (path => costs,
# names joined by ";" as folded text writes them), sums (of the node
# costs) and totals (its totals: line) of each.
sub read_tree {
    my ($file) = @_;
    my (@events, %name, @parts, $t, @stack);
    open(my $f, '<', $file) or die "$file: $!\n";
    while (<$f>) {
        chomp;
        next if /^#/ || /^$/;
        if (/^(\d+) (\d+)((?: \d+)*)$/) {
            my ($depth, $id, @costs) = ($1, $2, split ' ', $3);
            die "$file:$.: node before any part\n" unless $t;
            die "$file:$.: depth $depth after depth " . scalar(@stack) . "\n"
                if $depth < 1 || $depth > @stack + 1;
            die "$file:$.: fn id $id not defined\n" unless defined $name{$id};
            splice @stack, $depth - 1;
            push @stack, $name{$id} =~ s/;/:/gr;
            my $path = join ';', @stack;
            for my $i (0 .. $#costs) {
                $t->{paths}{$path}[$i] += $costs[$i];
                $t->{sums}[$i] += $costs[$i];
            }
        }
        elsif (/^fn: (\d+) (.*)$/) { $name{$1} = $2 }
        elsif (/^events:\s*(.*)$/) { @events = split ' ', $1 }
        elsif (/^part:\s*(\d+)$/) {
            $t = { part => $1, thread => 0, events => [@events], paths => {},
                   sums => [(0) x @events] };
            push @parts, $t;
            @stack = ();
        }
        elsif (/^thread:\s*(\d+)$/) { $t->{thread} = thread_no($1) }
        elsif (/^desc: Trigger: (.*)$/) { $t->{trigger} = $1 }
        elsif (/^totals:\s*(.*)$/) { $t->{totals} = [split ' ', $1] }
        elsif (!/^[a-z]+:/) { die "$file:$.: not a folded tree line\n" }
    }
    return @parts;
}

# The parts of a callgrind.out file: part, thread, pid, events, totals.
sub read_sections {
    my ($file) = @_;
    my (@parts, $p, $pid, @events);
    open(my $o, '<', $file) or die "$file: $!\n";
    while (<$o>) {
        $pid = $1 if /^pid:\s*(\d+)/;
        if (/^part:\s*(\d+)/) {
            $p = { part => $1, thread => 0, pid => $pid };
            push @parts, $p;
        }
        if (/^events:\s*(.*)$/) {
            # a file written by another tool may have no part: line
            $p //= do { push @parts, { part => 1, thread => 0, pid => $pid }; $parts[-1] };
            $p->{events} = [split ' ', $1];
        }
        $p->{thread} = thread_no($1) if /^thread:\s*(\d+)/;
        $p->{totals} = [(split)[1 .. $#{$p->{events}} + 1]] if /^totals:/;
    }
    return @parts;
}
if (defined $min_parts) {
    print @pairs >= $min_parts ? "at least $min_parts parts\n"
                               : "only " . scalar(@pairs) . " parts\n";
}
if ($total) {
    print $all_equal ? "each sum equals its totals\n" : "not all sums equal their totals\n";
    print "all parts:\n";
    print "  $_ $sum_kept{$_}\n" for sort keys %sum_kept;
}
