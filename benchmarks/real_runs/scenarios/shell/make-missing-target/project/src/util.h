const char *greeting(const char *who);
