use strict;
use warnings;
use Test::More;
use Report::CSV;

plan skip_all => 'Text::CSV_XS not installed (optional, recommended)' unless eval { require Text::CSV_XS; 1 };
is(Report::CSV::backend(), 'Text::CSV_XS', 'uses the XS parser when present');
done_testing;
