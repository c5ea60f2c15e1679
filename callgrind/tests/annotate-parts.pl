#! /usr/bin/perl
# Post-check of callgrind_annotate on a --combine-dumps=yes profile: runs
# it on all parts (summed) and on each part (--part=N), and prints for
# each run the warnings it gave, its trigger, whether its PROGRAM TOTALS
# equal the totals: of the parts it reads, and the self cost of the
# functions of FILE (a source file name).
#
#   annotate-parts.pl ANNOTATE SOURCE PROFILE
use strict;
use warnings;

my ($annotate, $source, $profile) = @ARGV;
my (@totals, $n);
open(my $f, '<', $profile) or die "$profile: $!\n";
while (<$f>) { push @totals, (split)[1] if /^totals:/ }
$n = @totals;
for my $part (0 .. $n) {
    my @args = ("--threshold=100", "--auto=no");
    push @args, "--part=$part" if $part;
    my $out = `perl $annotate @args $profile 2>&1`;
    my $warnings = () = $out =~ /WARNING/g;
    my ($trigger) = $out =~ /^Trigger: (.*)$/m;
    my ($total) = $out =~ /^\s*([\d,]+)\s.*PROGRAM TOTALS/m;
    $total =~ s/,//g if defined $total;
    my $want = 0;
    $want += $_ for $part ? ($totals[$part - 1]) : @totals;
    print $part ? "part $part" : "all parts", ": $warnings warnings, trigger ", $trigger // 'none',
        ", PROGRAM TOTALS ", (defined $total && $total == $want ? "equal" : "differ from"),
        " the totals: of ", ($part ? "the part" : "all parts"), "\n";
    for (split /\n/, $out) {
        print "  $2 $1\n" if /^\s*([\d,]+)\s.*\Q$source\E:(\S+)/;
    }
}
