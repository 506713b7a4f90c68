package Invoice::Line;
use strict;
use warnings;

sub new {
    my ($class, %args) = @_;
    return bless { desc => $args{desc}, qty => $args{qty} // 1, unit => $args{unit} }, $class;
}

sub amount { my $s = shift; return $s->{qty} * $s->{unit} }
sub desc   { $_[0]{desc} }

1;
