package Mail::Address::Lite;
use strict;
use warnings;
use Carp qw(croak);

sub parse {
    my ($class, $text) = @_;
    croak "error: empty address" unless defined $text && $text =~ /\S/;
    my ($name, $addr) = $text =~ /^\s*(?:"?([^"<]*?)"?\s*)?<([^>]+)>\s*$/;
    $addr //= $text =~ s/^\s+|\s+$//gr;
    croak "error: no '\@' in '$addr'" unless $addr =~ /^[^@\s]+@[^@\s]+$/;
    my ($local, $domain) = split /@/, $addr;
    return bless { name => $name, local => $local, domain => lc $domain }, $class;
}

sub address { my $s = shift; return "$s->{local}\@$s->{domain}" }
sub name    { $_[0]{name} }
sub domain  { $_[0]{domain} }

1;
