package App::Config;
use strict;
use warnings;

# Fail at compile time, before anything connects anywhere, when the environment is incomplete.
our %CONF;
BEGIN {
    for my $var (qw(APP_ENV APP_DB_DSN)) {
        die "$var is not set: export it in the job's env (see docs/ci.md)\n" unless defined $ENV{$var};
    }
    %CONF = (env => $ENV{APP_ENV}, dsn => $ENV{APP_DB_DSN}, user => $ENV{APP_DB_USER} // 'app');
}

sub get { return $CONF{ $_[1] } }

1;
