#! /usr/bin/perl
# Post-check of the cfni= tests: for a callgrind.out FILE, whether every
# cfni= line stands where CodSpeed's builds put it (after fi=/fe=, right
# before a position's cost line or its call lines, with the name in full),
# then for each function matching REGEX the inlined functions its cost
# lines are attributed to ("own code" for cfni=??? or none) and where its
# calls to functions matching REGEX are made from ("calls F in code of
# G"), and whether the cost lines of all functions still sum to totals:
# for every event.
#
#   inlined-check.pl REGEX FILE
use strict;
use warnings;

my ($re, $file) = @ARGV;
open(my $f, '<', $file) or die "$file: $!\n";
my (%names, $fn, $inl, $cfn, %seen, %calls, @bad, $count, @sum, @totals);
my $after_cfni = 0;
while (<$f>) {
    chomp;
    if ($after_cfni) {
        push @bad, "line $.: '$_' after cfni="
            unless /^([+\-]?\d|\*|0x|cob=|cfi=|cfl=|cfn=|calls=|ln=|jump=|jcnd=)/;
        $after_cfni = 0;
    }
    if (/^fn=(?:\((\d+)\))?\s*(.*)$/) {
        $fn = $2 ne '' ? $2 : $names{$1};
        $names{$1} = $fn if defined $1 && $2 ne '';
        undef $inl;
    }
    elsif (/^cfn=(?:\((\d+)\))?\s*(.*)$/) {
        $cfn = $2 ne '' ? $2 : $names{$1};
        $names{$1} = $cfn if defined $1 && $2 ne '';
    }
    elsif (/^cfni=(.*)$/) {
        $count++;
        push @bad, "line $.: compressed name '$1'" if $1 =~ /^\(\d+\)/;
        $inl = $1 eq '???' ? undef : $1;
        $after_cfni = 1;
    }
    elsif (/^calls=/) {
        <$f>;   # inclusive cost of a call
        $calls{$fn}{"calls $cfn in code of " . ($inl // $fn)} = 1
            if $fn =~ $re && $cfn =~ $re;
    }
    elsif (/^totals:\s*(.*)$/) { @totals = split ' ', $1 }
    elsif (defined $fn && /^([+\-]?\d|\*|0x)/) {
        my @v = split;
        $sum[$_ - 1] += $v[$_] for 1 .. $#v;
        $seen{$fn}{$inl // 'own code'} = 1 if $fn =~ $re;
    }
}
print "cfni lines: ", ($count ? "some" : "none"), "\n";
print @bad ? map { "$_\n" } @bad : "cfni placement: ok\n";
for my $fn (sort keys %seen) {
    print "$fn: ", join(", ", sort keys %{$seen{$fn}}), "\n";
    print "$fn: $_\n" for sort keys %{$calls{$fn} // {}};
}
print "sum ", ("@sum" eq "@totals" ? "equals totals" : "@sum, totals @totals"), "\n";
