package Invoice::Amount;
use strict;
use warnings;

our %RATE = (standard => 0.19, reduced => 0.07, zero => 0);

sub for_amount {
    my ($cents, $kind) = @_;
    my $rate = $RATE{ $kind // 'standard' };
    my $rate = defined $rate ? $rate : $RATE{standard};
    return sprintf '%.0f', $cents * $rate;
}

1;
