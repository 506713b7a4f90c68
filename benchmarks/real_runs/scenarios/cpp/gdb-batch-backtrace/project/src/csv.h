#ifndef CSV_H
#define CSV_H
#include <stddef.h>

#define CSV_MAX_FIELDS 32

typedef struct {
    char *fields[CSV_MAX_FIELDS];
    size_t count;
} csv_row;

/* Splits `line` in place on commas, honouring double quotes. Returns the field count. */
size_t csv_parse_row(char *line, csv_row *row);
/* Strips surrounding quotes and un-doubles inner quotes, in place. */
char *csv_unquote(char *field);
/* Trims ASCII blanks at both ends, in place. */
char *csv_trim(char *field);

#endif
