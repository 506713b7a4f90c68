use strict;
use warnings;
use Test::More;
use File::Temp qw(tempfile);
use Report::CSV;

my ($fh, $path) = tempfile(SUFFIX => '.csv');
print $fh "id,region,amount\n1,north,10\n2,south,5\n3,north,7\n";
close $fh;

my $s = Report::CSV::summarize($path);
is($s->{rows}, 3, 'three rows');
is($s->{by_region}{north}, 17, 'north total');
diag('CSV backend: ' . Report::CSV::backend());
done_testing;
