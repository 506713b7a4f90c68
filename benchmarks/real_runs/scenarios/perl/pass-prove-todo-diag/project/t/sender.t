use strict;
use warnings;
use Test::More;
use Mail::Sender;

my $calls = 0;
my $flaky = sub { $calls++; die "421 4.7.0 Try again later\n" if $calls < 3; 1 };
is(Mail::Sender::Retry->send(transport => $flaky, msg => 'hi'), 3, 'succeeds on the third attempt');

my $down = sub { die "Connection refused\n" };
eval { Mail::Sender::Retry->send(transport => $down, msg => 'hi', tries => 2) };
is($@, "giving up after 2 attempts\n", 'gives up after the last attempt');
diag("transport errors above are expected: they exercise the retry path");

done_testing;
