use strict;
use warnings;
use Test::More;
use Shop::Price qw(parse_price format_price);

is(parse_price('12'),        1200,   'whole units');
is(parse_price('0.05'),      5,      'five cents');
is(parse_price('1,234.50'),  123450, 'thousands separator');
is(parse_price('$19.99'),    1999,   'dollar sign is stripped');
is(parse_price('4.35'),      435,    'binary rounding of 4.35');
is(format_price(123450),     '1,234.50', 'formats with separator');
is(format_price(-2550),      '-25.50',   'negative amount');

eval { parse_price('abc') };
like($@, qr/not a price/, 'rejects garbage');

done_testing;
