use strict;
use warnings;
use Test::More;
use Invoice::Line;

my $l = Invoice::Line->new(desc => 'Widget', qty => 3, unit => 250);
is($l->amount, 750, 'qty times unit');
is(Invoice::Line->new(desc => 'x', unit => 99)->amount, 99, 'qty defaults to 1');
done_testing;
