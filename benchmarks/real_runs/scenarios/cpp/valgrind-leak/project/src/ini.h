#ifndef INI_H
#define INI_H
typedef int (*ini_handler)(void *user, const char *section, const char *key, const char *value);
/* Parse INI text, calling handler per key=value. Returns 0 or the first bad line number. */
int ini_parse(const char *text, ini_handler handler, void *user);
#endif
