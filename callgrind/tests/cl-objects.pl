#! /usr/bin/perl
# Post-check of the pyskip tests: which objects of a callgrind.out file
# match REGEX (by file name), and does function FN appear.
#   cl-objects.pl REGEX FN FILE
use strict;
use warnings;
my ($re, $want, $file) = @ARGV;
open(my $in, '<', $file) or die "$file: $!\n";
my (%names, %hidden, $seen);
while (<$in>) {
    if (/^c?ob=(.*)$/) {
        my $v = $1;
        if ($v =~ /^\((\d+)\)(?: (.*))?$/) { $names{$1} = $2 if defined $2; $v = $names{$1}; }
        (my $base = $v) =~ s{.*/}{};
        $hidden{$base} = 1 if $base =~ /$re/;
    }
    $seen = 1 if /^c?fn=(\(\d+\) )?\Q$want\E$/;
}
print %hidden ? "hidden objects shown: @{[sort keys %hidden]}\n" : "no hidden object shown\n";
print $seen ? "$want shown\n" : "$want missing\n";
