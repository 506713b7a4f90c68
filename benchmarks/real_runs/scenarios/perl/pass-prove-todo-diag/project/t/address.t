use strict;
use warnings;
use Test::More;
use Mail::Address;

my $a = Mail::Address::Lite->parse('"Ada Lovelace" <ada@Example.ORG>');
is($a->name, 'Ada Lovelace', 'display name');
is($a->address, 'ada@example.org', 'domain is lower-cased');
is(Mail::Address::Lite->parse('  bob@example.com ')->address, 'bob@example.com', 'bare address, trimmed');

for my $bad ('', 'no-at-sign', 'two@@example.com') {
    eval { Mail::Address::Lite->parse($bad) };
    like($@, qr/^error: /, "rejects '$bad'");
}

TODO: {
    local $TODO = 'comment-style display names are not supported yet (RFC 5322 3.2.2)';
    my $q = eval { Mail::Address::Lite->parse('ada@example.org (Ada Lovelace)') };
    ok($q, 'address with a trailing comment parses');
    is(eval { $q->name }, 'Ada Lovelace', 'comment becomes the display name');
}

SKIP: {
    skip 'IDN domains need Net::IDN::Encode', 1 unless eval { require Net::IDN::Encode; 1 };
    is(Mail::Address::Lite->parse('x@bücher.example')->domain, 'xn--bcher-kva.example', 'punycode');
}

done_testing;
