package Ledger;
use strict;
use warnings;
use Ledger::Entry;

sub new { return bless { entries => [], by_ref => {} }, shift }

sub post {
    my ($self, %e) = @_;
    my $entry = Ledger::Entry->new(%e);
    push @{ $self->{entries} }, $entry;
    $self->{by_ref}{ $entry->ref } = $entry if defined $entry->ref;
    return $entry;
}

sub balance {
    my ($self) = @_;
    my $b = 0;
    $b += $_->signed_amount for @{ $self->{entries} };
    return $b;
}

# Reverses an earlier entry by its reference.
sub reverse_entry {
    my ($self, $ref) = @_;
    my $orig = $self->{by_ref}{$ref};
    return $self->post(amount => $orig->amount, side => $orig->side eq 'debit' ? 'credit' : 'debit', memo => "reversal of $ref");
}

1;
