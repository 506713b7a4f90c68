package Report::CSV;
use strict;
use warnings;
use Text::CSV_XS;
use List::Util qw(sum0);

our $VERSION = '0.14';

sub summarize {
    my ($path) = @_;
    my $csv = Text::CSV_XS->new({ binary => 1, auto_diag => 1 });
    open my $fh, '<:encoding(UTF-8)', $path or die "cannot open $path: $!";
    my $header = $csv->getline($fh);
    my (%by_region, $rows);
    while (my $row = $csv->getline($fh)) {
        $rows++;
        $by_region{ $row->[1] } += $row->[2];
    }
    return { rows => $rows // 0, total => sum0(values %by_region), by_region => \%by_region };
}

1;
