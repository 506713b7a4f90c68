use strict;
use warnings;
use Test::More tests => 2;

use_ok('Shop::Price');
use_ok('Shop::Cart');
diag("Testing Shop $], Perl $^X");
