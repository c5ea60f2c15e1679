#! /usr/bin/perl
# Post-check of the cycle-kernels vgtests: the events line's last two
# events, then for each kernel the cost of one of its instructions in
# Ct and Cl: (self cost of the 200-copy kernel - self cost of
# the 100-copy one) / (100 * calls), exact or "not a whole number".
#
#   cycle-kernels.pl CALLGRIND_OUT
use strict;
use warnings;

my $calls = 1000;
my ($file) = @ARGV;
open(my $in, '<', $file) or die "$file: $!\n";
my (@events, %self, %names, $fn, $skip_next);
while (<$in>) {
    chomp;
    if (/^events:\s*(.*)/) { @events = split ' ', $1; next }
    if (/^fn=(?:\((\d+)\))?\s*(.*)/) {
        $names{$1} = $2 if defined $1 && $2 ne '';
        $fn = defined $1 ? $names{$1} : $2;
        next;
    }
    if (/^cfn=\((\d+)\)\s*(.+)/) { $names{$1} = $2; next }
    if (/^calls=/) { $skip_next = 1; next }
    if (/^[+-]?\d/ || /^\*/) {
        if ($skip_next) { $skip_next = 0; next }
        next unless defined $fn;
        my @v = split ' ';
        shift @v;                       # the position
        $self{$fn}[$_] += $v[$_] // 0 for 0 .. $#events;
    }
}
print "events: ... ", join(' ', @events[-2, -1]), "\n";
for my $k (qw(add imul div sqrtsd mulsd load fallback)) {
    my ($a, $b) = ($self{"kernel_${k}_100"}, $self{"kernel_${k}_200"});
    unless ($a && $b) { print "$k: missing\n"; next }
    my @out;
    for my $e (0 .. $#events) {
        next unless $events[$e] =~ /^C[tl]$/;
        my $d = ($b->[$e] // 0) - ($a->[$e] // 0);
        my $per = $d / (100 * $calls);
        push @out, "$events[$e] " . ($per == int($per) ? $per : "$per (not a whole number)");
    }
    print "$k: ", join(', ', @out), "\n";
}
