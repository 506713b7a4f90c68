#include "logfmt.hpp"

static const char *name(Level l)
{
    switch (l) {
    case Level::debug: return "DEBUG";
    case Level::info: return "INFO";
    case Level::warn: return "WARN";
    case Level::error: return "ERROR";
    }
    return "?";
}

std::string format_line(Level level, const std::string &msg, int indent)
{
    return std::string("[") + name(level) + "] " + msg;
}
