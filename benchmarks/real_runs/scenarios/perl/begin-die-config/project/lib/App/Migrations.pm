package App::Migrations;
use strict;
use warnings;

sub pending {
    my ($dir) = @_;
    opendir my $dh, $dir or die "cannot read $dir: $!";
    return sort grep { /^\d{4}-.*\.sql$/ } readdir $dh;
}

1;
