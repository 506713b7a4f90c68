package Invoice::Render;
use strict;
use warnings;
use List::Util qw(sum0 max);

# Renders invoice lines as a fixed-width text table.
sub text {
    my ($lines, %opt) = @_;
    my $width = max(map { length $_->desc } @$lines) // 10;
    my @rows;
    for my $l (@$lines) {
        push @rows, sprintf "%-*s %10.2f", $width, $l->desc, $l->amount / 100;
    }
    my $total = sum0(map { $_->amount } @$lines);
    if ($opt{currency}) {
        push @rows, sprintf "%-*s %10.2f %s", $width, 'TOTAL', $total / 100, $opt{currency}
    } else {
        push @rows, sprintf "%-*s %10.2f", $width, 'TOTAL', $total / 100;
    }
    my %seen = map { $_->desc => 1 } @$lines
    return join "\n", @rows, '';
}

1;
