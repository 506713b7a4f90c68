#include <assert.h>
#include <stdio.h>
#include "textutil.h"

int main(void)
{
    assert(wrap_lines("the quick brown fox", 10) == 2);
    assert(wrap_lines("", 10) == 0);
    assert(wrap_lines("supercalifragilistic", 5) == 1);
    puts("test_wrap: 3 checks passed");
    return 0;
}
