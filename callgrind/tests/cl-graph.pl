#! /usr/bin/perl
# Print the call graph of a callgrind.out file in a stable form, for the
# post-checks of the vgtests: one line per function with cost of its own
# ("fn NAME") and one per call arc ("call CALLER -> CALLEE COUNT") between
# functions whose names match REGEX, sorted.  Name compression is expanded.
#
#   cl-graph.pl REGEX FILE
#   cl-graph.pl --same-totals FILE1 FILE2   "same totals" when both files'
#                                           totals: lines are equal
use strict;
use warnings;

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
        my $k = "call $fn -> $cfn";
        $out{$k} += $calls if $fn =~ /$re/ && $cfn =~ /$re/;
        undef $calls;
    }
}
for my $k (sort keys %out) {
    print $k =~ /^call/ ? "$k $out{$k}\n" : "$k\n";
}
