package Report::CSV;
use strict;
use warnings;
# Text::CSV_XS is faster; fall back to a naive split when it is not installed.
my $HAVE_XS = eval { require Text::CSV_XS; 1 };
use List::Util qw(sum0);

our $VERSION = '0.15';

sub backend { return $HAVE_XS ? 'Text::CSV_XS' : 'split' }

sub summarize {
    my ($path) = @_;
    open my $fh, '<:encoding(UTF-8)', $path or die "cannot open $path: $!";
    my $csv = $HAVE_XS ? Text::CSV_XS->new({ binary => 1, auto_diag => 1 }) : undef;
    my $next = $csv ? sub { $csv->getline($fh) } : sub { my $l = <$fh>; return unless defined $l; chomp $l; [split /,/, $l] };
    my $header = $next->();
    my (%by_region, $rows);
    while (my $row = $next->()) {
        $rows++;
        $by_region{ $row->[1] } += $row->[2];
    }
    return { rows => $rows // 0, total => sum0(values %by_region), by_region => \%by_region };
}

1;
