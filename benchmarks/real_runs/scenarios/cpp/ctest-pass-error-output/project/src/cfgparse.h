#ifndef CFGPARSE_H
#define CFGPARSE_H
#include <stdio.h>
/* Parses `text`; reports each problem to `diag` as "NAME:LINE: error: MESSAGE".
   Returns the number of errors. */
int cfg_check(const char *name, const char *text, FILE *diag);
#endif
