package Mail::Sender::Retry;
use strict;
use warnings;

# Sends through a transport, retrying transient failures; logs each attempt to STDERR.
sub send {
    my ($class, %a) = @_;
    my ($transport, $msg, $tries) = @a{qw(transport msg tries)};
    $tries //= 3;
    for my $n (1 .. $tries) {
        my $ok = eval { $transport->($msg); 1 };
        return $n if $ok;
        chomp(my $err = $@);
        warn "ERROR attempt $n/$tries failed: $err\n";
    }
    die "giving up after $tries attempts\n";
}

1;
