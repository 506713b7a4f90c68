#ifndef INTERN_H
#define INTERN_H
#include <stddef.h>

/* Interns `s`: equal strings get the same pointer. The table lives for the whole process. */
const char *intern(const char *s);
size_t intern_count(void);
/* Logs "LEVEL component: message" to stderr. */
void log_line(const char *level, const char *component, const char *msg);

#endif
