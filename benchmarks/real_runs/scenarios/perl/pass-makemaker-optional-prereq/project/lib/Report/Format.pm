package Report::Format;
use strict;
use warnings;
use JSON::PP ();

sub as_json {
    my ($summary) = @_;
    return JSON::PP->new->canonical->pretty->encode($summary);
}

1;
