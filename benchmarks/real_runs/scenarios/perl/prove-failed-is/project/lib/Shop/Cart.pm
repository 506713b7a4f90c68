package Shop::Cart;
use strict;
use warnings;

sub new { my ($class) = @_; return bless { lines => [] }, $class }

sub add {
    my ($self, $sku, $cents, $qty) = @_;
    push @{ $self->{lines} }, { sku => $sku, cents => $cents, qty => $qty // 1 };
    return $self;
}

sub total {
    my ($self) = @_;
    my $sum = 0;
    $sum += $_->{cents} * $_->{qty} for @{ $self->{lines} };
    return $sum;
}

sub skus { my ($self) = @_; return [ map { $_->{sku} } @{ $self->{lines} } ] }

1;
