use strict;
use warnings;
use Test::More;
use Shop::Cart;

my $cart = Shop::Cart->new->add('BK-1', 1299)->add('PEN', 250, 4);
is($cart->total, 2299, 'total sums price times quantity');
is_deeply($cart->skus, [qw(BK-1 PEN)], 'skus in insertion order');
done_testing;
