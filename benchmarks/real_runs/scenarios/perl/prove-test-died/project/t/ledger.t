use strict;
use warnings;
use Test::More;
use Ledger;

my $l = Ledger->new;
$l->post(amount => 100, side => 'credit', ref => 'INV-1');
$l->post(amount => 30,  side => 'debit',  ref => 'PAY-9');
is($l->balance, 70, 'credit minus debit');

$l->reverse_entry('PAY-9');
is($l->balance, 100, 'reversing the payment restores the balance');

# references are case-insensitive in the bank export
$l->reverse_entry('inv-1');
is($l->balance, 0, 'reversing the invoice zeroes the balance');

done_testing;
