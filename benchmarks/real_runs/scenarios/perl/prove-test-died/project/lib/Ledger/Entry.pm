package Ledger::Entry;
use strict;
use warnings;
use Carp qw(croak);

sub new {
    my ($class, %e) = @_;
    croak "amount must be positive" unless ($e{amount} // 0) > 0;
    croak "side must be debit or credit" unless ($e{side} // '') =~ /^(?:debit|credit)$/;
    return bless {%e}, $class;
}

sub amount { $_[0]{amount} }
sub side   { $_[0]{side} }
sub ref    { $_[0]{ref} }
sub signed_amount { my $s = shift; return $s->side eq 'credit' ? $s->amount : -$s->amount }

1;
