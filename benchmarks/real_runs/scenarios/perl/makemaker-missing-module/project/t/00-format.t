use strict;
use warnings;
use Test::More;
use Report::Format;

like(Report::Format::as_json({ rows => 2 }), qr/"rows" : 2/, 'canonical JSON');
done_testing;
