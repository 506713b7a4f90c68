#include <assert.h>
#include <stdio.h>
#include <string.h>
#include "textutil.h"

int main(void)
{
    char a[] = "  padded \t\n";
    char b[] = "";
    char c[] = "none";
    assert(strcmp(trim(a), "padded") == 0);
    assert(strcmp(trim(b), "") == 0);
    assert(strcmp(trim(c), "none") == 0);
    puts("test_trim: 3 checks passed");
    return 0;
}
