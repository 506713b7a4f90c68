use strict;
use warnings;
use Test::More;
use Mail::Address;
use Mail::Sender;

plan skip_all => 'set SMTP_HOST to run against a live relay' unless $ENV{SMTP_HOST};
ok(1);
done_testing;
