use strict;
use warnings;
use Test::More;
use Invoice::Line;
use Invoice::Render;

my @lines = (Invoice::Line->new(desc => 'Widget', qty => 2, unit => 500));
like(Invoice::Render::text(\@lines), qr/TOTAL\s+10\.00/, 'total row');
done_testing;
