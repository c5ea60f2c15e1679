#! /usr/bin/perl
# Print the call graph of a callgrind.out file in a stable form, for the
# post-checks of the vgtests: one line per function with cost of its own
# ("fn NAME") whose name matches REGEX, and one per call arc into such a
# function ("call CALLER -> CALLEE COUNT"), sorted.  A caller without
# symbols (named by address) is shown as "0x?", as its address varies.
# Name compression is expanded.
#
#   cl-graph.pl REGEX FILE
#   cl-graph.pl --same-totals FILE1 FILE2   "same totals" when both files'
#                                           totals: lines are equal
#   cl-graph.pl --sum [REGEX] FILE   also (or only) print "costs sum to
#                            totals" when the self costs of all functions
#                            add up to the totals: line
use strict;
use warnings;

my $check_sum = 0;
# "costs sum to totals" when the self costs of all functions in FILE add
# up to its totals: line.
sub sum_check {
    my ($file) = @_;
    open(my $in, '<', $file) or die "$file: $!\n";
    my ($npos, $in_call, @sum, $totals) = (1, 0);
    while (<$in>) {
        if (/^positions:\s*(.*)$/) { $npos = scalar(split(' ', $1)); }
        elsif (/^calls=/) { $in_call = 1; }
        elsif (/^totals:\s*(.*)$/) { $totals = $1; }
        elsif (/^[0-9+*-]/) {
            if ($in_call) { $in_call = 0; next; }
            my @f = split;
            splice(@f, 0, $npos);
            $sum[$_] += $f[$_] for 0 .. $#f;
        }
    }
    my @t = split(' ', $totals // '');
    my $ok = @t > 0;
    for my $i (0 .. $#t) { $ok = 0 if ($sum[$i] // 0) != $t[$i]; }
    print $ok ? "costs sum to totals\n" : "costs do not sum to totals: '@{[map { $_ // 0 } @sum]}' vs '@t'\n";
}

if ($ARGV[0] eq '--sum') {
    shift;
    if (@ARGV == 1) { sum_check($ARGV[0]); exit 0; }
    $check_sum = 1;
}

if ($ARGV[0] eq '--same-totals') {
    my @t;
    for my $f (@ARGV[1, 2]) {
        open(my $in, '<', $f) or die "$f: $!\n";
        my $t = '';
        while (<$in>) { $t = $1 if /^totals:\s*(.*)$/; }
        push @t, $t;
    }
    print $t[0] ne '' && $t[0] eq $t[1] ? "same totals\n" : "totals differ: '$t[0]' '$t[1]'\n";
    exit 0;
}
my ($re, $file) = @ARGV;
open(my $in, '<', $file) or die "$file: $!\n";
my (%names, %out, $fn, $cfn, $calls);
sub name {
    my ($v) = @_;
    if ($v =~ /^\((\d+)\)(?: (.*))?$/) {
        $names{$1} = $2 if defined $2;
        return $names{$1};
    }
    return $v;
}
while (<$in>) {
    chomp;
    if (/^fn=(.*)$/) { $fn = name($1); $out{"fn $fn"} = 1 if $fn =~ /$re/; }
    elsif (/^cfn=(.*)$/) { $cfn = name($1); }
    elsif (/^calls=(\d+)/) { $calls = $1; }
    elsif (defined $calls && /^[0-9+*-]/) {
        (my $caller = $fn) =~ s/^0x[0-9a-f]+$/0x?/;
        my $k = "call $caller -> $cfn";
        $out{$k} += $calls if $cfn =~ /$re/;
        undef $calls;
    }
}
for my $k (sort keys %out) {
    print $k =~ /^call/ ? "$k $out{$k}\n" : "$k\n";
}
sum_check($file) if $check_sum;
