use strict;
use warnings;
use Test::More;
use Ledger::Entry;

ok(Ledger::Entry->new(amount => 5, side => 'debit'), 'valid entry');
eval { Ledger::Entry->new(amount => -1, side => 'debit') };
like($@, qr/amount must be positive/, 'negative amount croaks');
eval { Ledger::Entry->new(amount => 1, side => 'sideways') };
like($@, qr/side must be/, 'bad side croaks');
done_testing;
