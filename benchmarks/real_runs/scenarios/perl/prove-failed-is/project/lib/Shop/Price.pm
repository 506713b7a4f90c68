package Shop::Price;
use strict;
use warnings;
use Exporter 'import';
our @EXPORT_OK = qw(parse_price format_price);

# "1,234.50" -> 123450 (cents)
sub parse_price {
    my ($text) = @_;
    die "no price given\n" unless defined $text && length $text;
    (my $t = $text) =~ s/[,\s]//g;
    $t =~ s/^\$//;
    die "not a price: '$text'\n" unless $t =~ /^-?\d+(?:\.\d{1,2})?$/;
    return int($t * 100);
}

sub format_price {
    my ($cents) = @_;
    my $s = sprintf '%.2f', $cents / 100;
    1 while $s =~ s/^(-?\d+)(\d{3})/$1,$2/;
    return $s;
}

1;
